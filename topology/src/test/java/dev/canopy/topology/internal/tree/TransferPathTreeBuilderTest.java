package dev.canopy.topology.internal.tree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.topology.internal.graph.BandwidthSource;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One node per site: a~c is short (15 ms one way) but thin (4 Mbit/s), a~b and b~c are 40 ms at 100 Mbit/s. */
class TransferPathTreeBuilderTest {

    private static final long MIB = 1L << 20;
    private static final LatencyMatrix LATENCIES = LatencyMatrix.ofRowMajor(List.of("a", "b", "c"),
            new double[] {0, 40, 15, 40, 0, 40, 15, 40, 0});
    private static final BandwidthSource THIN_AC = new BandwidthSource() {
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
            return (fromSite + toSite).equals("ac") || (fromSite + toSite).equals("ca") ? 4 : 100;
        }
    };

    @Test
    void aLargeMessageIsRelayedAroundTheThinLink() {
        CostModel cost = new CostModel(0, 0, 0, MIB).withBandwidths(THIN_AC);
        Tree tree = new TransferPathTreeBuilder().build(LATENCIES, 0, cost).orElseThrow();
        assertThat(tree.children("a")).containsExactly("b");
        assertThat(tree.children("b")).containsExactly("c");
        assertThat(new AutoTreeBuilder().build(LATENCIES, 0, cost).orElseThrow().children("a"))
                .as("auto picks the relay too: it completes in about 2 x 84 ms + 80 ms, the direct link in 2.1 s")
                .containsExactly("b");
    }

    @Test
    void aSmallMessageTakesTheShortLinkAsTheLatencyShortestPathTreeDoes() {
        CostModel cost = new CostModel(0, 0, 0, 0).withBandwidths(THIN_AC);
        Tree tree = new TransferPathTreeBuilder().build(LATENCIES, 0, cost).orElseThrow();
        assertThat(tree.children("a")).containsExactlyInAnyOrder("b", "c");
        assertThat(tree.edges()).isEqualTo(new ShortestPathTreeBuilder().build(LATENCIES, 0, cost).orElseThrow().edges());
    }
}
