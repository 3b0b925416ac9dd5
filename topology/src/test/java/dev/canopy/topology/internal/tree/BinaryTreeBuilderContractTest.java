package dev.canopy.topology.internal.tree;

class BinaryTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return BoundedFanOutTreeBuilder.binary();
    }
}
