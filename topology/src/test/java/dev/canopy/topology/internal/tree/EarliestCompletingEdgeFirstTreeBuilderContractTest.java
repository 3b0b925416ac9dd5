package dev.canopy.topology.internal.tree;

class EarliestCompletingEdgeFirstTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return new EarliestCompletingEdgeFirstTreeBuilder();
    }
}
