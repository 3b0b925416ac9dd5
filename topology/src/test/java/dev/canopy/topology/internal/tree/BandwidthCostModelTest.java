package dev.canopy.topology.internal.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.canopy.topology.internal.RandomLatencies.Symmetry;
import dev.canopy.topology.internal.RandomLatencies;
import dev.canopy.topology.internal.ThinUplinkGrids;
import dev.canopy.topology.internal.graph.BandwidthSource;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The bandwidth-aware prediction: shared uplinks, per-link bandwidth and pipelined segments. */
class BandwidthCostModelTest {

    private static final long MB = 1_000_000;

    @Property(tries = 60)
    void aStarOfKChildrenOverOneUplinkTakesKMessageTimes(@ForAll @IntRange(min = 1, max = 30) int k,
            @ForAll @IntRange(min = 0, max = 3) int uplinkDecade, @ForAll @IntRange(min = 1, max = 16) int megabytes) {
        double uplinkMbps = Math.pow(10, 1 + uplinkDecade); // 10 Mb/s to 10 Gb/s
        long bytes = megabytes * MB;
        LatencyMatrix matrix = TestMatrices.uniform(k + 1, 20);
        CostModel cost = new CostModel(0, 0, 0, bytes).withBandwidths(ThinUplinkGrids.uniformUplinks(uplinkMbps));
        Tree star = new FlatTreeBuilder().build(matrix, 0, cost).orElseThrow();
        double messageMs = bytes * 8 / (uplinkMbps * 1000);
        assertThat(cost.predict(star, matrix).completionMs()).as("k m / B + L")
                .isCloseTo(k * messageMs + 20, within(1e-6 * k * messageMs));
    }

    @Test
    void linksWithoutASharedUplinkCarryChildrenInParallel() {
        LatencyMatrix matrix = TestMatrices.uniform(4, 10);
        BandwidthSource linksOnly = new BandwidthSource() {
            @Override
            public String siteOf(String node) {
                return node;
            }

            @Override
            public double uplinkMbps(String site) {
                return Double.POSITIVE_INFINITY;
            }

            @Override
            public double linkMbps(String fromSite, String toSite) {
                return toSite.equals("s3") ? 40 : 80;
            }
        };
        CostModel cost = new CostModel(0, 0, 0, MB).withBandwidths(linksOnly);
        Tree star = new FlatTreeBuilder().build(matrix, 0, cost).orElseThrow();
        Prediction prediction = cost.predict(star, matrix);
        assertThat(prediction.arrivalMs().get("s1")).isCloseTo(100 + 10, within(1e-9));
        assertThat(prediction.arrivalMs().get("s3")).isCloseTo(200 + 10, within(1e-9));
    }

    @Test
    void nodesOfOneSiteShareItsUplinkButNotForTrafficInsideTheSite() {
        // r and a in site X (uplink 80 Mb/s: 1 MB takes 100 ms), b and c in site Y, unlimited
        List<String> names = List.of("r", "a", "b", "c");
        LatencyMatrix matrix = LatencyMatrix.ofRowMajor(names, new double[] {0, 1, 5, 5, 1, 0, 5, 5, 5, 5, 0, 1, 5, 5, 1, 0});
        BandwidthSource sites = new BandwidthSource() {
            @Override
            public String siteOf(String node) {
                return node.equals("r") || node.equals("a") ? "X" : "Y";
            }

            @Override
            public double uplinkMbps(String site) {
                return site.equals("X") ? 80 : Double.POSITIVE_INFINITY;
            }

            @Override
            public double linkMbps(String fromSite, String toSite) {
                return Double.POSITIVE_INFINITY;
            }
        };
        CostModel cost = new CostModel(0.5, 0, 0, MB).withBandwidths(sites);
        // r -> a (same site), then r -> b; a -> c: a's send queues behind r's on X's uplink
        Tree tree = new Tree("hand", names, 0, new int[][] {{1, 2}, {3}, {}, {}});
        Prediction prediction = cost.predict(tree, matrix);
        assertThat(prediction.arrivalMs().get("a")).isCloseTo(0.5 + 1, within(1e-9));
        assertThat(prediction.arrivalMs().get("b")).isCloseTo(1.0 + 100 + 5, within(1e-9));
        // a hands over at 1.5 + 0.5 = 2.0, but X's uplink is busy until 101
        assertThat(prediction.arrivalMs().get("c")).isCloseTo(101 + 100 + 5, within(1e-9));
    }

    @Test
    void aHostsProcessesShareItsNicForTrafficToOtherHostsOnly() {
        // r and a on host H1 (NIC 80 Mb/s: 1 MB takes 100 ms), b on H2, c on H3 in site X; d on H4 in site Y,
        // X's uplink 40 Mb/s (1 MB takes 200 ms); H2's NIC unlimited
        List<String> names = List.of("r", "a", "b", "c", "d");
        double[] values = new double[25];
        for (int from = 0; from < 5; from++) {
            for (int to = 0; to < 5; to++) {
                values[from * 5 + to] = from == to ? 0 : from == 4 || to == 4 ? 5 : 1;
            }
        }
        LatencyMatrix matrix = LatencyMatrix.ofRowMajor(names, values);
        BandwidthSource hosts = new BandwidthSource() {
            @Override
            public String siteOf(String node) {
                return node.equals("d") ? "Y" : "X";
            }

            @Override
            public double uplinkMbps(String site) {
                return site.equals("X") ? 40 : Double.POSITIVE_INFINITY;
            }

            @Override
            public double linkMbps(String fromSite, String toSite) {
                return Double.POSITIVE_INFINITY;
            }

            @Override
            public String hostOf(String node) {
                return node.equals("a") ? "H1" : node.equals("r") ? "H1" : "H-" + node;
            }

            @Override
            public double nicMbps(String host) {
                return host.equals("H1") ? 80 : Double.POSITIVE_INFINITY;
            }
        };
        CostModel cost = new CostModel(0.5, 0, 0, MB).withBandwidths(hosts);
        // r sends to a (its own host), b, c (other hosts of its site), then d (another site); b forwards nothing
        Tree star = new Tree("hand", names, 0, new int[][] {{1, 2, 3, 4}, {}, {}, {}, {}});
        Prediction prediction = cost.predict(star, matrix);
        assertThat(prediction.arrivalMs().get("a")).as("same host: no NIC").isCloseTo(0.5 + 1, within(1e-9));
        assertThat(prediction.arrivalMs().get("b")).as("NIC from 1.0").isCloseTo(1.0 + 100 + 1, within(1e-9));
        assertThat(prediction.arrivalMs().get("c")).as("NIC queued behind b").isCloseTo(101 + 100 + 1, within(1e-9));
        // d: NIC from 201 to 301, uplink (slower) from 201 to 401
        assertThat(prediction.arrivalMs().get("d")).as("NIC then the slower uplink").isCloseTo(201 + 200 + 5, within(1e-9));
        // alone on the wire, a transfer takes its size at the slowest stage it crosses
        assertThat(cost.transferMs("r", "a")).isZero();
        assertThat(cost.transferMs("r", "b")).isCloseTo(100, within(1e-9));
        assertThat(cost.transferMs("r", "d")).isCloseTo(200, within(1e-9));
        assertThat(cost.transferMs("b", "c")).as("b's NIC is unlimited").isZero();
        assertThat(cost.withMessageBytes(0).transferMs("r", "d")).isZero();
    }

    @Property(tries = 40)
    void aHostOfKProcessesSendingToOtherHostsTakesKMessageTimesOverItsNic(
            @ForAll @IntRange(min = 1, max = 20) int k, @ForAll @IntRange(min = 0, max = 3) int nicDecade) {
        double nicMbps = Math.pow(10, 1 + nicDecade);
        LatencyMatrix matrix = TestMatrices.uniform(k + 1, 0.1);
        BandwidthSource oneSiteOwnNics = new BandwidthSource() {
            @Override
            public String siteOf(String node) {
                return "site";
            }

            @Override
            public double uplinkMbps(String site) {
                return 1;
            }

            @Override
            public double linkMbps(String fromSite, String toSite) {
                return 1;
            }

            @Override
            public double nicMbps(String host) {
                return nicMbps;
            }
        };
        CostModel cost = new CostModel(0, 0, 0, MB).withBandwidths(oneSiteOwnNics);
        Tree star = new FlatTreeBuilder().build(matrix, 0, cost).orElseThrow();
        double messageMs = MB * 8 / (nicMbps * 1000);
        assertThat(cost.predict(star, matrix).completionMs()).as("k m / NIC + L, the site's own uplink unused")
                .isCloseTo(k * messageMs + 0.1, within(1e-6 * k * messageMs));
    }

    @Test
    void aPipelinedChainTakesOneMessageTimePlusOneSegmentTimePerHop() {
        int hops = 5;
        long segment = 100_000;
        int segments = 10;
        LatencyMatrix matrix = TestMatrices.uniform(hops + 1, 7);
        int[][] children = new int[hops + 1][];
        for (int v = 0; v < hops; v++) {
            children[v] = new int[] {v + 1};
        }
        children[hops] = new int[0];
        Tree chain = new Tree("chain", matrix.nodes(), 0, children);
        CostModel cost = new CostModel(0, 0, 0, segment * segments)
                .withBandwidths(ThinUplinkGrids.uniformUplinks(80)).withSegments((bytes, depth) -> (int) segment);
        double segmentMs = segment * 8 / 80_000.0; // 10 ms
        assertThat(cost.predict(chain, matrix).completionMs())
                .isCloseTo((segments - 1 + hops) * segmentMs + hops * 7, within(1e-6));
    }

    @Property(tries = 40)
    void withoutLimitsTheReplayMatchesTheClosedForm(@ForAll long seed, @ForAll @IntRange(min = 1, max = 30) int n,
            @ForAll @IntRange(min = 0, max = 3) int prior) {
        LatencyMatrix matrix = RandomLatencies.matrix(seed, n, 0.0, Symmetry.ASYMMETRIC);
        CostModel closed = new CostModel(0.3, 0.1, 0.00001, 50_000);
        CostModel replayed = closed.withSegments((bytes, depth) -> (int) bytes);
        assertThat(replayed.simulates()).isTrue();
        for (TreeAlgorithm algorithm : List.of(TreeAlgorithm.FLAT, TreeAlgorithm.BINOMIAL, TreeAlgorithm.SPT,
                TreeAlgorithm.CHAIN)) {
            Tree tree = algorithm.builder().build(matrix, 0, closed).orElseThrow();
            double[] expected = closed.arrivalsMs(tree, matrix, 3, prior);
            double[] actual = replayed.arrivalsMs(tree, matrix, 3, prior);
            for (int v = 0; v < n; v++) {
                assertThat(actual[v]).as("seed %d, %s, node %d", seed, algorithm, v).isCloseTo(expected[v], within(1e-9));
            }
        }
    }

    @Property(tries = 20)
    void autoIsNeverPredictedWorseThanAnyBuilderOnThinUplinkGrids(@ForAll long seed,
            @ForAll @IntRange(min = 2, max = 24) int sites) {
        ThinUplinkGrids.Grid grid = ThinUplinkGrids.generate(seed, sites);
        int root = new Random(seed).nextInt(sites);
        for (long bytes : new long[] {2, 1024, 65_536, MB, 16 * MB}) {
            CostModel cost = new CostModel(0.02, 0, 0, bytes).withBandwidths(grid.bandwidths())
                    .withSegments((m, depth) -> (int) Math.max(8192, Math.min(m, m / Math.max(1, 4 * depth))));
            double auto = completion(TreeAlgorithm.AUTO, grid.latencies(), root, cost);
            for (TreeAlgorithm other : TreeAlgorithm.values()) {
                assertThat(auto).as("seed %d, %d sites, %d bytes: auto vs %s", seed, sites, bytes, other)
                        .isLessThanOrEqualTo(completion(other, grid.latencies(), root, cost));
            }
        }
    }

    @Test
    void onThinUplinksAutoAvoidsWideFanOutForLargeMessages() {
        LatencyMatrix matrix = TestMatrices.uniform(10, 15);
        CostModel cost = new CostModel(0.02, 0, 0, MB).withBandwidths(ThinUplinkGrids.uniformUplinks(200));
        double flat = completion(TreeAlgorithm.FLAT, matrix, 0, cost);
        Tree auto = TreeAlgorithm.AUTO.builder().build(matrix, 0, cost).orElseThrow();
        assertThat(flat).as("9 MB over one 200 Mb/s uplink").isGreaterThan(360);
        // doubling the informed sites each message time (binomial-like) beats nine sends over one uplink
        assertThat(cost.predict(auto, matrix).completionMs()).isLessThan(0.6 * flat)
                .isLessThanOrEqualTo(completion(TreeAlgorithm.BINOMIAL, matrix, 0, cost));
        assertThat(auto.childCount(0)).isLessThan(9);
        // a 2-byte message is latency-bound: the star is best
        CostModel small = cost.withMessageBytes(2);
        assertThat(completion(TreeAlgorithm.AUTO, matrix, 0, small))
                .isEqualTo(completion(TreeAlgorithm.FLAT, matrix, 0, small));
    }

    private static double completion(TreeAlgorithm algorithm, LatencyMatrix matrix, int root, CostModel cost) {
        return cost.predict(algorithm.builder().build(matrix, root, cost).orElseThrow(), matrix).completionMs();
    }
}
