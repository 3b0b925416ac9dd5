package dev.canopy.topology.tree;

class EarliestCompletingEdgeFirstTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return new EarliestCompletingEdgeFirstTreeBuilder();
    }
}
