package dev.canopy.topology.internal.tree;

class MstTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return new MstTreeBuilder();
    }
}
