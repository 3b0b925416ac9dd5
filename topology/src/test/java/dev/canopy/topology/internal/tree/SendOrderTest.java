package dev.canopy.topology.internal.tree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.topology.internal.RandomLatencies.Symmetry;
import dev.canopy.topology.internal.RandomLatencies;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Longest-subtree-first is never later than any other order of the same edges. */
class SendOrderTest {

    @Property(tries = 300)
    void noShuffledSendOrderFinishesEarlier(@ForAll long seed, @ForAll @IntRange(min = 2, max = 30) int n,
            @ForAll @IntRange(min = 0, max = 20) int overheadMs) {
        LatencyMatrix matrix = RandomLatencies.matrix(seed, n, 0.0, Symmetry.ASYMMETRIC);
        CostModel cost = new CostModel(overheadMs, 0, 0, 0);
        Random random = new Random(seed);
        int[] parent = new int[n];
        parent[0] = -1;
        for (int v = 1; v < n; v++) {
            parent[v] = random.nextInt(v); // a random tree rooted at 0
        }
        Tree ordered = SendOrder.longestSubtreeFirst("ordered", matrix, 0, parent, cost);
        int[][] shuffled = new int[n][];
        for (int v = 0; v < n; v++) {
            List<Integer> children = new ArrayList<>();
            for (int child : ordered.childIndices(v)) {
                children.add(child);
            }
            Collections.shuffle(children, random);
            shuffled[v] = children.stream().mapToInt(Integer::intValue).toArray();
        }
        Tree other = new Tree("shuffled", matrix.nodes(), 0, shuffled);
        assertThat(cost.predict(ordered, matrix).completionMs())
                .isLessThanOrEqualTo(cost.predict(other, matrix).completionMs() + 1e-9);
    }
}
