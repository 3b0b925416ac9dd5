package dev.canopy.topology.tree;

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
