package dev.canopy.topology.tree;

class HlotTreeBuilderContractTest extends TreeBuilderContractTest {

    @Override
    TreeBuilder builder() {
        return new HlotTreeBuilder();
    }
}
