package dev.canopy.topology.internal.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.canopy.topology.internal.RandomLatencies.Symmetry;
import dev.canopy.topology.internal.RandomLatencies;
import dev.canopy.topology.internal.SharedLatencyData;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** ECEF, binomial and auto: how message size and fan-out change the tree and the choice. */
class ModelDrivenTreesTest {

    private final LatencyMatrix planetlab = SharedLatencyData.load("planetlab490_first64.csv").toMatrix();

    @Property(tries = 200)
    void ecefWithFreeSendsArrivesAtShortestPathLatency(@ForAll long seed, @ForAll @IntRange(min = 1, max = 40) int n,
            @ForAll Symmetry symmetry) {
        LatencyMatrix matrix = RandomLatencies.matrix(seed, n, 0.2, symmetry);
        PlanningResult<Tree> ecef = new EarliestCompletingEdgeFirstTreeBuilder().build(matrix, 0, CostModel.LATENCY_ONLY);
        ShortestPaths paths = ShortestPaths.from(matrix, 0);
        if (paths.firstUnreachable() >= 0) {
            assertThat(ecef.isPlanned()).isFalse();
            return;
        }
        double[] arrival = CostModel.LATENCY_ONLY.arrivalsMs(ecef.orElseThrow(), matrix, 0, 0);
        for (int v = 0; v < n; v++) {
            assertThat(arrival[v]).isCloseTo(paths.distanceMs()[v], within(1e-9));
        }
    }

    @Property(tries = 200)
    void autoIsNeverWorseThanAnyCandidate(@ForAll long seed, @ForAll @IntRange(min = 1, max = 30) int n,
            @ForAll @IntRange(min = 0, max = 20) int overheadMs, @ForAll @IntRange(min = 0, max = 1_000_000) int bytes) {
        LatencyMatrix matrix = RandomLatencies.matrix(seed, n, 0.0, Symmetry.ASYMMETRIC);
        CostModel cost = new CostModel(overheadMs, 0, 0.00008, bytes);
        double auto = cost.predict(new AutoTreeBuilder().build(matrix, 0, cost).orElseThrow(), matrix).completionMs();
        for (TreeAlgorithm algorithm : List.of(TreeAlgorithm.FLAT, TreeAlgorithm.BINOMIAL, TreeAlgorithm.MST,
                TreeAlgorithm.HLOT, TreeAlgorithm.SPT, TreeAlgorithm.ECEF)) {
            Tree tree = algorithm.builder().build(matrix, 0, cost).orElseThrow();
            assertThat(auto).as("auto vs %s", algorithm).isLessThanOrEqualTo(cost.predict(tree, matrix).completionMs());
        }
    }

    @Test
    void perSendOverheadMakesEcefSpreadTheSendingOverRelays() {
        CostModel free = CostModel.LATENCY_ONLY;
        CostModel costly = new CostModel(20, 0, 0, 0);
        EarliestCompletingEdgeFirstTreeBuilder ecef = new EarliestCompletingEdgeFirstTreeBuilder();
        Tree cheapSends = ecef.build(planetlab, 0, free).orElseThrow();
        Tree expensiveSends = ecef.build(planetlab, 0, costly).orElseThrow();
        assertThat(maxFanOut(expensiveSends)).isLessThan(maxFanOut(cheapSends));
        Tree flat = new FlatTreeBuilder().build(planetlab, 0, costly).orElseThrow();
        assertThat(costly.predict(expensiveSends, planetlab).completionMs())
                .isLessThan(costly.predict(flat, planetlab).completionMs() / 4);
    }

    @Test
    void messageSizeChangesTheTreeAutoChooses() {
        CostModel wan = new CostModel(0.01, 0, 0.00008, 0);
        AutoTreeBuilder auto = new AutoTreeBuilder();
        String small = auto.build(planetlab, 0, wan.withMessageBytes(2)).orElseThrow().algorithm();
        String large = auto.build(planetlab, 0, wan.withMessageBytes(4_000_000)).orElseThrow().algorithm();
        assertThat(small).isNotEqualTo(large);
        Tree largeEcef = new EarliestCompletingEdgeFirstTreeBuilder().build(planetlab, 0, wan.withMessageBytes(4_000_000)).orElseThrow();
        Tree smallEcef = new EarliestCompletingEdgeFirstTreeBuilder().build(planetlab, 0, wan.withMessageBytes(2)).orElseThrow();
        assertThat(largeEcef).isNotEqualTo(smallEcef);
    }

    @Test
    void binomialFollowsMpichRanksRelativeToTheRoot() {
        LatencyMatrix eight = RandomLatencies.matrix(1, 8, 0.0, Symmetry.SYMMETRIC);
        Tree tree = new BinomialTreeBuilder().build(eight, 3, CostModel.LATENCY_ONLY).orElseThrow();
        // relative rank 0 is node 3: it sends to relative 4, 2, 1 = nodes 7, 5, 4, largest subtree first
        assertThat(tree.children("n3")).containsExactly("n7", "n5", "n4");
        assertThat(tree.children("n7")).containsExactly("n1", "n0");
        assertThat(tree.children("n1")).containsExactly("n2");
        assertThat(tree.height()).isEqualTo(3);
    }

    @Test
    void flatSendsToTheFarthestNodeFirst() {
        Tree flat = new FlatTreeBuilder().build(planetlab, 0, new CostModel(1, 0, 0, 0)).orElseThrow();
        int[] children = flat.childIndices(0);
        for (int k = 1; k < children.length; k++) {
            assertThat(planetlab.latency(0, children[k - 1])).isGreaterThanOrEqualTo(planetlab.latency(0, children[k]));
        }
    }

    private static int maxFanOut(Tree tree) {
        int max = 0;
        for (int v = 0; v < tree.size(); v++) {
            max = Math.max(max, tree.childCount(v));
        }
        return max;
    }
}
