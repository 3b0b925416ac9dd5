package dev.canopy.topology.tree;

class AutoTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return new AutoTreeBuilder();
    }
}
