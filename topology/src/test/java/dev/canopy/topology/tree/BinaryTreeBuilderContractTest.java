package dev.canopy.topology.tree;

class BinaryTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return BoundedFanOutTreeBuilder.binary();
    }
}
