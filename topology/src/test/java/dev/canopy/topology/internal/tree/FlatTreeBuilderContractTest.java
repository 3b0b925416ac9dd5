package dev.canopy.topology.internal.tree;

class FlatTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return new FlatTreeBuilder();
    }

    @Override
    LinkUse linkUse() {
        return LinkUse.FIXED_SHAPE;
    }
}
