package dev.canopy.topology.internal.tree;

class AutoTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return new AutoTreeBuilder();
    }
}
