package dev.canopy.topology.internal.hierarchy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.canopy.gridconfig.Coordinates;
import dev.canopy.topology.internal.graph.BandwidthSource;
import dev.canopy.topology.internal.graph.LatencySource;
import dev.canopy.topology.internal.tree.CostModel;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A hierarchical plan under a bandwidth-aware model is replayed as one tree: levels share the site uplinks. */
class BandwidthPlanTest {

    private final Map<String, Coordinates> members = new LinkedHashMap<>();

    BandwidthPlanTest() {
        for (String site : new String[] {"a", "b", "c"}) {
            for (int host = 1; host <= 2; host++) {
                members.put(site + host, new Coordinates(site, site, site, site, site + "-h" + host));
            }
        }
    }

    private final LatencySource latencies = (from, to) ->
            members.get(from).site().equals(members.get(to).site()) ? 0.1 : 10;

    /** Site uplinks of 80 Mb/s (1 MB in 100 ms), links unlimited. */
    private final BandwidthSource uplinks = new BandwidthSource() {
        @Override
        public String siteOf(String node) {
            return members.get(node).site();
        }

        @Override
        public double uplinkMbps(String site) {
            return 80;
        }

        @Override
        public double linkMbps(String fromSite, String toSite) {
            return Double.POSITIVE_INFINITY;
        }
    };

    @Test
    void theRootsWanSendsQueueOnItsUplinkWhileItsSiteSendDoesNot() {
        CostModel cost = new CostModel(0, 0, 0, 1_000_000).withBandwidths(uplinks);
        HierarchicalPlan plan = new HierarchicalPlanner(LevelAlgorithms.everywhere(TreeAlgorithm.FLAT), cost)
                .plan(Hierarchy.of(members), latencies, "a1", 1).orElseThrow();
        // a1 -> b1 and a1 -> c1 over a's uplink one after the other (100 ms each), a1 -> a2 inside the site
        assertThat(plan.sends("a1")).containsExactly("b1", "c1", "a2");
        assertThat(plan.arrivalMs().get("b1")).isCloseTo(110, within(1e-9));
        assertThat(plan.arrivalMs().get("c1")).isCloseTo(210, within(1e-9));
        assertThat(plan.arrivalMs().get("a2")).isCloseTo(0.1, within(1e-9));
        assertThat(plan.arrivalMs().get("c2")).isCloseTo(210.1, within(1e-9));
        assertThat(plan.predictedCompletionMs()).isCloseTo(210.1, within(1e-9));
    }

    @Test
    void replayingUnderAnotherModelKeepsTheTrees() {
        HierarchicalPlan plan = new HierarchicalPlanner(LevelAlgorithms.everywhere(TreeAlgorithm.FLAT), CostModel.LATENCY_ONLY)
                .plan(Hierarchy.of(members), latencies, "a1", 1).orElseThrow();
        assertThat(plan.predictedCompletionMs()).isCloseTo(10.1, within(1e-9));
        Map<String, Double> loaded = plan.replay(latencies, new CostModel(0, 0, 0, 1_000_000).withBandwidths(uplinks));
        assertThat(loaded.get("c2")).isCloseTo(210.1, within(1e-9));
    }
}
