package dev.canopy.topology.internal.tree;

class ChainTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return BoundedFanOutTreeBuilder.chain();
    }
}
