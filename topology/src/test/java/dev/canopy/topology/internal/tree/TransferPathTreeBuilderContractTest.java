package dev.canopy.topology.internal.tree;

class TransferPathTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return new TransferPathTreeBuilder();
    }
}
