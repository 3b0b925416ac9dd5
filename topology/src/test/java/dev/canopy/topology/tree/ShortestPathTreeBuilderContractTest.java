package dev.canopy.topology.tree;

class ShortestPathTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return new ShortestPathTreeBuilder();
    }
}
