package dev.canopy.topology.tree;

class ChainTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return BoundedFanOutTreeBuilder.chain();
    }
}
