package dev.canopy.topology.internal.tree;

class BinomialTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return new BinomialTreeBuilder();
    }

    @Override
    LinkUse linkUse() {
        return LinkUse.FIXED_SHAPE;
    }
}
