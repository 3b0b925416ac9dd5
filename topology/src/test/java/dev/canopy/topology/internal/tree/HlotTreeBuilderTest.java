package dev.canopy.topology.internal.tree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.topology.internal.RandomLatencies.Symmetry;
import dev.canopy.topology.internal.RandomLatencies;
import dev.canopy.topology.internal.SharedLatencyData;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class HlotTreeBuilderTest {

    private final HlotTreeBuilder hlot = new HlotTreeBuilder();

    @Property(tries = 300)
    void arrivalNeverExceedsTheDirectLinkOnRandomGraphs(@ForAll long seed, @ForAll @IntRange(min = 1, max = 40) int n,
            @ForAll Symmetry symmetry, @ForAll @IntRange(min = 0, max = 100) int rootSeed) {
        LatencyMatrix matrix = RandomLatencies.matrix(seed, n, 0.1, symmetry);
        int root = rootSeed % n;
        PlanningResult<Tree> result = hlot.build(matrix, root, CostModel.LATENCY_ONLY);
        if (result.isPlanned()) {
            assertArrivalWithinDirect(result.orElseThrow(), matrix, root);
        }
    }

    @Test
    void arrivalNeverExceedsTheDirectLinkOnEverySharedMatrixFromEveryRoot() {
        for (Path file : SharedLatencyData.files()) {
            LatencyMatrix matrix = SharedLatencyData.load(file).toMatrix();
            int step = matrix.size() > 100 ? 37 : 1;
            for (int root = 0; root < matrix.size(); root += step) {
                assertArrivalWithinDirect(hlot.build(matrix, root, CostModel.LATENCY_ONLY).orElseThrow(), matrix, root);
            }
        }
    }

    /** Differential: the pseudo-code of the design note, transcribed literally (sorted candidate list, rejections). */
    @Property(tries = 200)
    void equalsTheLiteralPseudoCode(@ForAll long seed, @ForAll @IntRange(min = 1, max = 25) int n,
            @ForAll Symmetry symmetry) {
        LatencyMatrix matrix = RandomLatencies.matrix(seed, n, 0.15, symmetry);
        PlanningResult<Tree> result = hlot.build(matrix, 0, CostModel.LATENCY_ONLY);
        int[] literal = literalHlotParents(matrix, 0);
        if (literal == null) {
            assertThat(result.isPlanned()).isFalse();
            return;
        }
        Tree tree = result.orElseThrow();
        for (int v = 1; v < n; v++) {
            assertThat(tree.parentIndex(v)).as("parent of %s", matrix.name(v)).isEqualTo(literal[v]);
        }
    }

    @Test
    void relaysAroundASlowDirectLinkOnlyWhenThatIsNoSlower() {
        // r -> a 10, r -> b 100 (slow direct link), a -> b 20: relaying through a gives 30 < 100.
        // r -> c 25, a -> c 20: relaying would give 30 > 25, so c keeps its direct link.
        double inf = Double.POSITIVE_INFINITY;
        LatencyMatrix matrix = LatencyMatrix.ofRowMajor(List.of("r", "a", "b", "c"), new double[] {
            0, 10, 100, 25,
            10, 0, 20, 20,
            100, 20, 0, inf,
            25, 20, inf, 0});
        Tree tree = hlot.build(matrix, 0, CostModel.LATENCY_ONLY).orElseThrow();
        assertThat(tree.parent("b")).contains("a");
        assertThat(tree.parent("c")).contains("r");
        assertThat(CostModel.LATENCY_ONLY.predict(tree, matrix).completionMs()).isEqualTo(30.0);
        Tree mst = new MstTreeBuilder().build(matrix, 0, CostModel.LATENCY_ONLY).orElseThrow();
        assertThat(mst.parent("c")).as("MST takes the cheaper link a -> c and arrives later").contains("a");
        Tree flat = new FlatTreeBuilder().build(matrix, 0, CostModel.LATENCY_ONLY).orElseThrow();
        assertThat(CostModel.LATENCY_ONLY.predict(flat, matrix).completionMs()).isEqualTo(100.0);
    }

    @Test
    void anUnmeasuredDirectLinkCountsAsInfinitelySlow() {
        double inf = Double.POSITIVE_INFINITY;
        LatencyMatrix matrix = LatencyMatrix.ofRowMajor(List.of("r", "a", "far"), new double[] {
            0, 10, inf,
            10, 0, 500,
            inf, 500, 0});
        Tree tree = hlot.build(matrix, 0, CostModel.LATENCY_ONLY).orElseThrow();
        assertThat(tree.parent("far")).contains("a");
        assertThat(new FlatTreeBuilder().build(matrix, 0, CostModel.LATENCY_ONLY).isPlanned()).isFalse();
    }

    static void assertArrivalWithinDirect(Tree tree, LatencyMatrix matrix, int root) {
        double[] arrival = CostModel.LATENCY_ONLY.arrivalsMs(tree, matrix, 0, 0);
        for (int v = 0; v < matrix.size(); v++) {
            assertThat(arrival[v]).as("D[%s] <= W[%s][%s]", matrix.name(v), matrix.name(root), matrix.name(v))
                    .isLessThanOrEqualTo(matrix.latency(root, v));
        }
    }

    /** The design note's loop as written; null when some node cannot be added. */
    private static int[] literalHlotParents(LatencyMatrix w, int r) {
        int n = w.size();
        Set<Integer> y = new HashSet<>(List.of(r));
        double[] d = new double[n];
        int[] parent = new int[n];
        Arrays.fill(parent, -1);
        int[] order = new int[n];
        while (y.size() < n) {
            List<int[]> candidates = new ArrayList<>();
            for (int c : y) {
                for (int m = 0; m < n; m++) {
                    if (!y.contains(m) && w.linked(c, m)) {
                        candidates.add(new int[] {c, m});
                    }
                }
            }
            // fastest link first; ties: smaller target, then the parent that joined the tree first
            candidates.sort(Comparator.<int[]>comparingDouble(e -> w.latency(e[0], e[1])).thenComparingInt(e -> e[1])
                    .thenComparingInt(e -> order[e[0]]));
            int[] chosen = null;
            for (int[] edge : candidates) {
                if (!(d[edge[0]] + w.latency(edge[0], edge[1]) > w.latency(r, edge[1]))) {
                    chosen = edge;
                    break;
                }
            }
            if (chosen == null) {
                return null;
            }
            y.add(chosen[1]);
            order[chosen[1]] = y.size();
            parent[chosen[1]] = chosen[0];
            d[chosen[1]] = d[chosen[0]] + w.latency(chosen[0], chosen[1]);
        }
        return parent;
    }
}
