package dev.canopy.collectives.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.ProcessPlacement;
import dev.canopy.probes.internal.Link;
import dev.canopy.probes.internal.Metric;
import dev.canopy.probes.internal.forecast.Forecast;
import dev.canopy.probes.internal.forecast.LinkForecast;
import dev.canopy.probes.internal.forecast.LinkState;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlan;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.LogGpParameters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The thin-uplink example with its bandwidths taken out of the file: the bandwidth prober's forecasts (200 Mb/s
 * between every pair of sites, as its 200 Mb/s uplinks would measure) put them back into the sized plans.
 */
class ProbedBandwidthsTest {

    private static final long MB = 1_000_000;
    private static final String THIN = GridConfigs.bundledText("thin-uplinks-10site.rsl");

    private final GridModel configured = GridConfigs.parse(THIN, "thin.rsl").model().orElseThrow();
    private final GridModel unconfigured = GridConfigs.parse(THIN.replace("(uplink_mbps = 200)", "")
            .replace("(bandwidth_mbps = 1000)", ""), "thin.rsl").model().orElseThrow();

    private static List<Member> membersOf(GridModel grid) {
        List<Member> members = new ArrayList<>();
        for (ProcessPlacement process : grid.processes()) {
            members.add(new Member(NodeId.of("p" + process.globalIndex()), process.coordinates(),
                    new NodeAddress("127.0.0.1", 1000 + process.globalIndex(), 1000 + process.globalIndex())));
        }
        members.sort(Member.RANK_ORDER);
        return members;
    }

    /** A forecast between the first members of every two sites, as the representatives measure them. */
    private static List<LinkForecast> forecastsBetweenSites(List<Member> members, Metric metric, LinkState state,
            double value) {
        Map<String, Member> representatives = new LinkedHashMap<>();
        members.forEach(member -> representatives.putIfAbsent(member.coordinates().site(), member));
        List<Member> sites = List.copyOf(representatives.values());
        List<LinkForecast> forecasts = new ArrayList<>();
        for (int a = 0; a < sites.size(); a++) {
            for (int b = a + 1; b < sites.size(); b++) {
                forecasts.add(new LinkForecast(Link.between(sites.get(a).id(), sites.get(b).id()), metric, state,
                        new Forecast(value, "median-5", 1, 1, 10), 0));
            }
        }
        return forecasts;
    }

    @Test
    void forecastsFillTheBandwidthsTheFileDoesNotGive() {
        List<Member> members = membersOf(unconfigured);
        ProbedBandwidths probed = ProbedBandwidths.of(unconfigured, ConfiguredPlans.coordinatesOf(members),
                forecastsBetweenSites(members, Metric.BANDWIDTH, LinkState.FRESH, 200));
        assertThat(probed.uplinkMbps("ams")).isEqualTo(200);
        assertThat(probed.linkMbps("mad", "ams")).isEqualTo(200);
        assertThat(probed.measuredAny()).isTrue();
        assertThat(probed.toString()).startsWith("probed[ams~ber=200.0, ams~cph=200.0");
    }

    @Test
    void theFileWinsAndStaleOrRoundTripForecastsAreIgnored() {
        List<Member> members = membersOf(configured);
        List<LinkForecast> forecasts = new ArrayList<>(forecastsBetweenSites(members, Metric.BANDWIDTH, LinkState.FRESH, 20));
        ProbedBandwidths probed = ProbedBandwidths.of(configured, ConfiguredPlans.coordinatesOf(members), forecasts);
        assertThat(probed.uplinkMbps("ams")).isEqualTo(200);
        assertThat(probed.linkMbps("ams", "ber")).isEqualTo(1000);

        List<Member> bare = membersOf(unconfigured);
        List<LinkForecast> unusable = new ArrayList<>(forecastsBetweenSites(bare, Metric.BANDWIDTH, LinkState.STALE, 20));
        unusable.addAll(forecastsBetweenSites(bare, Metric.ROUND_TRIP_TIME, LinkState.FRESH, 20));
        ProbedBandwidths none = ProbedBandwidths.of(unconfigured, ConfiguredPlans.coordinatesOf(bare), unusable);
        assertThat(none.measuredAny()).isFalse();
        assertThat(none.uplinkMbps("ams")).isInfinite();
        assertThat(none.linkMbps("ams", "ber")).isInfinite();
    }

    @Test
    void aSizedPlanOnForecastBandwidthsAvoidsTheStarAsTheConfiguredOneDoes() {
        List<Member> members = membersOf(unconfigured);
        List<LinkForecast> forecasts = forecastsBetweenSites(members, Metric.BANDWIDTH, LinkState.FRESH, 200);
        LevelAlgorithms algorithms = LevelChoices.of(unconfigured.levels());
        TopologyPlan probed = ConfiguredPlans.of(members, unconfigured, algorithms, MB, LogGpParameters.DEFAULTS, forecasts);
        TopologyPlan blind = ConfiguredPlans.of(members, unconfigured, algorithms, MB, LogGpParameters.DEFAULTS);
        TopologyPlan fromFile = ConfiguredPlans.of(membersOf(configured), configured, LevelChoices.of(configured.levels()), MB);

        HierarchicalPlan plan = probed.hierarchicalPlan(0);
        assertThat(plan.treesAt(Level.HEAVY_WAN).get(0).tree().childCount(0)).as("the root's children in other sites")
                .isLessThan(9);
        assertThat(blind.hierarchicalPlan(0).treesAt(Level.HEAVY_WAN).get(0).tree().childCount(0))
                .as("without bandwidths the star is latency-optimal").isEqualTo(9);
        // 200 Mb/s links after 200 Mb/s uplinks pace a transfer as the file's 1 Gb/s links after them do
        assertThat(plan.predictedCompletionMs())
                .isCloseTo(fromFile.hierarchicalPlan(0).predictedCompletionMs(), within(0.02 * plan.predictedCompletionMs()));
        assertThat(probed.epoch()).isNotEqualTo(blind.epoch());
        assertThat(ConfiguredPlans.of(members, unconfigured, algorithms, MB, LogGpParameters.DEFAULTS, List.of()).epoch())
                .isEqualTo(blind.epoch());
    }
}
