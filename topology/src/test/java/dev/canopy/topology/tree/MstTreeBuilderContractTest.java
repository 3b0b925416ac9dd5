package dev.canopy.topology.tree;

class MstTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return new MstTreeBuilder();
    }
}
