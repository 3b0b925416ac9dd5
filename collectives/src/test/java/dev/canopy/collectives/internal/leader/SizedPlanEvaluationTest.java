package dev.canopy.collectives.internal.leader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.GridLatencies;
import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.collectives.plan.SitePairBandwidths;
import dev.canopy.core.node.NodeId;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.ProcessPlacement;
import dev.canopy.probes.internal.Link;
import dev.canopy.probes.internal.Metric;
import dev.canopy.probes.internal.forecast.Forecast;
import dev.canopy.probes.internal.forecast.LinkForecast;
import dev.canopy.probes.internal.forecast.LinkState;
import dev.canopy.topology.internal.hierarchy.Hierarchy;
import dev.canopy.topology.internal.tree.LogGpParameters;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The leader's judgement per message size: a thin a~c link (short, 15 ms one way) changes nothing for 0-byte
 * messages and makes the current 1 MiB trees, planned before it was measured, an order of magnitude slower than new
 * ones; the bandwidths it snapshots are the fresh site-pair forecasts only.
 */
class SizedPlanEvaluationTest {

    private static final String LEVEL_FILE = """
            +
            ( &(type = grid) (name = "sized") (default_rtt_ms = 100) (levels = (heavy_wan auto)) )
            ( &(type = subjob) (label = "a") (count = 1) (wan_group = "a") (site = "a") (uplink_mbps = 10000) )
            ( &(type = subjob) (label = "b") (count = 1) (wan_group = "b") (site = "b") (uplink_mbps = 10000) )
            ( &(type = subjob) (label = "c") (count = 1) (wan_group = "c") (site = "c") (uplink_mbps = 10000) )
            ( &(type = link) (between = "a" "b") (rtt_ms = 80) )
            ( &(type = link) (between = "b" "c") (rtt_ms = 80) )
            ( &(type = link) (between = "a" "c") (rtt_ms = 30) )
            """;
    private static final long MIB = 1L << 20;

    private final GridModel grid = GridConfigs.parse(LEVEL_FILE, "sized.rsl").orElseThrow();
    private final Map<String, Coordinates> coordinates = coordinates(grid);
    private final SizedPlanners planners = (bytes, bandwidths) -> ConfiguredPlans.planner(grid, coordinates,
            LevelChoices.of(grid.levels()), bytes, LogGpParameters.DEFAULTS, bandwidths);
    private final PlanEvaluator evaluator = PlanEvaluator.everyRoot(Hierarchy.of(coordinates), planners,
            PlanEvaluator.DEFAULT_MESSAGE_SIZES);
    private final LatencySnapshot latencies = LatencySnapshot.of(List.copyOf(coordinates.keySet()),
            new GridLatencies(grid, coordinates, LogGpParameters.DEFAULTS));

    @Test
    void aThinLinkMattersForLargeMessagesOnly() {
        PublishedPlan current = new PublishedPlan(1, latencies, SitePairBandwidths.NONE, 40, "before any bandwidth");
        SitePairBandwidths thinAc = SitePairBandwidths.of(List.of(SitePairBandwidths.Pair.of("c", "a", 4),
                SitePairBandwidths.Pair.of("a", "b", 100), SitePairBandwidths.Pair.of("b", "c", 100)));

        List<PlanEvaluator.SizedPrediction> predictions = evaluator.predict(current, latencies, thinAc);

        assertThat(predictions).extracting(PlanEvaluator.SizedPrediction::messageBytes)
                .containsExactly(0L, 64L << 10, MIB, 16 * MIB);
        PlanEvaluator.SizedPrediction small = predictions.get(0);
        assertThat(small.candidateMs()).as("0 bytes: the same latency trees").isEqualTo(small.currentMs());
        PlanEvaluator.SizedPrediction large = predictions.get(2);
        assertThat(large.currentMs()).as("1 MiB over 4 Mbit/s takes 2.1 s").isGreaterThan(2_000);
        assertThat(large.candidateMs()).as("relayed over 100 Mbit/s links").isLessThan(large.currentMs() / 5);
        assertThat(large.relativeGain()).isGreaterThan(small.relativeGain());
        assertThat(PlanEvaluator.distinctClasses(predictions).lowerBounds())
                .as("the classes whose trees differ: latency trees, then the relay from where it pays")
                .containsExactly(0L, 64L << 10);
        // Nothing thin, but the runtime's flow control: from a, the latency tree sends b (40 ms away) 1 MiB in one
        // piece, beyond the 1 MiB eager limit with its header, so by rendezvous (announce, request, body: 120 ms);
        // relayed through c, the deeper tree pipelines it in eager segments.
        assertThat(PlanEvaluator.distinctClasses(evaluator.predict(current, latencies, SitePairBandwidths.NONE))
                .lowerBounds()).as("nothing thin: latency trees, then the relay from where rendezvous costs")
                .containsExactly(0L, MIB);
    }

    @Test
    void theSnapshotTakesFreshBandwidthForecastsBetweenSites() {
        List<LinkForecast> forecasts = List.of(
                forecast("p0", "p2", Metric.BANDWIDTH, LinkState.FRESH, 4),
                forecast("p0", "p1", Metric.BANDWIDTH, LinkState.STALE, 100),
                forecast("p1", "p2", Metric.ROUND_TRIP_TIME, LinkState.FRESH, 80));

        assertThat(evaluator.bandwidths(forecasts)).isEqualTo(SitePairBandwidths.of(
                List.of(SitePairBandwidths.Pair.of("a", "c", 4))));
        assertThat(PlanEvaluator.everyRoot(Hierarchy.of(coordinates), planners.plannerFor(0, SitePairBandwidths.NONE))
                .bandwidths(forecasts)).as("a latency-only leader publishes no bandwidths")
                .isEqualTo(SitePairBandwidths.NONE);
    }

    private static LinkForecast forecast(String a, String b, Metric metric, LinkState state, double value) {
        return new LinkForecast(Link.between(NodeId.of(a), NodeId.of(b)), metric, state,
                new Forecast(value, "median-5", 1, 1, 10), 0);
    }

    private static Map<String, Coordinates> coordinates(GridModel grid) {
        Map<String, Coordinates> coordinates = new LinkedHashMap<>();
        for (ProcessPlacement process : grid.processes()) {
            coordinates.put("p" + process.globalIndex(), process.coordinates());
        }
        return coordinates;
    }
}
