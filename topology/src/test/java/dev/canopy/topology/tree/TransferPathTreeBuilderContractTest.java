package dev.canopy.topology.tree;

class TransferPathTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return new TransferPathTreeBuilder();
    }
}
