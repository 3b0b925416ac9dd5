package dev.canopy.topology.internal.tree;

class ShortestPathTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return new ShortestPathTreeBuilder();
    }
}
