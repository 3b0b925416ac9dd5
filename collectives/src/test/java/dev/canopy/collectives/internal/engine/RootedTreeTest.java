package dev.canopy.collectives.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RootedTreeTest {

    @Test
    void parentsDepthAndSubtreesFollowTheChildLists() {
        RootedTree tree = RootedTree.fromChildren(2, List.of(List.of(), List.of(0), List.of(3, 1), List.of()));
        assertThat(tree.parent(2)).isEqualTo(RootedTree.NO_PARENT);
        assertThat(tree.parent(0)).isEqualTo(1);
        assertThat(tree.children(2)).containsExactly(3, 1);
        assertThat(tree.depth()).isEqualTo(2);
        assertThat(tree.subtree(1)).containsExactly(0, 1);
        assertThat(tree.subtree(2)).containsExactly(0, 1, 2, 3);
    }

    @Test
    void brokenTreesNameTheRank() {
        assertThatThrownBy(() -> RootedTree.fromChildren(0, List.of(List.of(1), List.of(), List.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rank 2 has no parent");
        assertThatThrownBy(() -> RootedTree.fromChildren(0, List.of(List.of(1), List.of(1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rank 1 appears as a child twice");
        assertThatThrownBy(() -> RootedTree.fromChildren(0, List.of(List.of(), List.of(2), List.of(1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cycle");
    }

    @Test
    void aPartialTreeSpansSomeRanksOnly() {
        // Root 3 reaches 0, which reaches 5; ranks 1, 2 and 4 are outside.
        RootedTree heads = RootedTree.partial(3, List.of(List.of(5), List.of(), List.of(), List.of(0), List.of(),
                List.of()));
        assertThat(heads.contains(3)).isTrue();
        assertThat(heads.contains(0)).isTrue();
        assertThat(heads.contains(5)).isTrue();
        assertThat(heads.contains(1)).isFalse();
        assertThat(heads.contains(4)).isFalse();
        assertThat(heads.parent(5)).isEqualTo(0);
        assertThat(heads.depth()).isEqualTo(2);
        assertThatThrownBy(() -> RootedTree.partial(0, List.of(List.of(), List.of(2), List.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rank 1 has children but no parent");
        assertThatThrownBy(() -> RootedTree.partial(0, List.of(List.of(1), List.of(0))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rank 0 appears as a child");
        assertThatThrownBy(() -> RootedTree.partial(0, List.of(List.of(), List.of(2), List.of(1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cycle");
    }
}
