package dev.canopy.multicast.internal.reliable;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class CoRootLayoutTest {

    @Test
    void everyMemberHasOneHeadAndTheHeadsFormOneBinomialTreeFromTheRoot() {
        for (int size = 1; size <= 40; size++) {
            for (int s = 1; s <= size; s++) {
                for (int root = 0; root < size; root++) {
                    check(new CoRootLayout(size, root, s), size, root, s);
                }
            }
        }
    }

    @Test
    void sixteenMembersInSubGroupsOfFour() {
        CoRootLayout layout = new CoRootLayout(16, 5, 4);
        assertThat(layout.coRoots()).containsExactly(9, 13, 1);
        assertThat(layout.leavesOf(5)).containsExactly(6, 7, 8);
        assertThat(layout.leavesOf(13)).containsExactly(14, 15, 0);
        assertThat(layout.parentOf(15)).isEqualTo(13);
        assertThat(layout.parentOf(13)).isEqualTo(5);
        assertThat(layout.forwardChildrenOf(5)).containsExactly(9, 13);
        assertThat(layout.forwardChildrenOf(9)).containsExactly(1);
        assertThat(layout.forwardChildrenOf(13)).isEmpty();
    }

    private static void check(CoRootLayout layout, int size, int root, int s) {
        Set<Integer> leaves = new HashSet<>();
        Set<Integer> heads = new HashSet<>();
        heads.add(root);
        for (int head : layout.coRoots()) {
            assertThat(heads.add(head)).isTrue();
            assertThat(layout.parentOf(head)).isEqualTo(root);
        }
        assertThat(heads).hasSize((size + s - 1) / s);
        for (int head : heads) {
            assertThat(layout.isHead(head)).isTrue();
            for (int leaf : layout.leavesOf(head)) {
                assertThat(leaves.add(leaf)).as("leaf %d has one head", leaf).isTrue();
                assertThat(layout.parentOf(leaf)).isEqualTo(head);
                assertThat(layout.isHead(leaf)).isFalse();
            }
        }
        assertThat(leaves.size() + heads.size()).isEqualTo(size);
        // The reliable path reaches every head exactly once, in at most ceil(log2(heads)) rounds.
        Set<Integer> reached = new HashSet<>(Set.of(root));
        ArrayDeque<int[]> queue = new ArrayDeque<>();
        queue.add(new int[] {root, 0});
        int depth = 0;
        while (!queue.isEmpty()) {
            int[] at = queue.poll();
            depth = Math.max(depth, at[1]);
            for (int child : layout.forwardChildrenOf(at[0])) {
                assertThat(reached.add(child)).as("head %d reached once", child).isTrue();
                queue.add(new int[] {child, at[1] + 1});
            }
        }
        assertThat(reached).isEqualTo(heads);
        assertThat(depth).isLessThanOrEqualTo(32 - Integer.numberOfLeadingZeros(Math.max(0, heads.size() - 1)));
    }
}
