package dev.canopy.topology.internal.tree;

class HlotTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return new HlotTreeBuilder();
    }
}
