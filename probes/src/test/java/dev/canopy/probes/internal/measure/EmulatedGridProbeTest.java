package dev.canopy.probes.internal.measure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.emulation.GridWanEmulation;
import dev.canopy.core.internal.emulation.LinkProfile;
import dev.canopy.core.internal.emulation.WanEmulation;
import dev.canopy.core.internal.emulation.WanEmulationLayer;
import dev.canopy.core.internal.emulation.WanEmulator;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.Site;
import dev.canopy.probes.internal.Metric;
import dev.canopy.probes.internal.forecast.ForecastSettings;
import dev.canopy.probes.internal.forecast.LinkForecast;
import dev.canopy.probes.internal.schedule.LinkRole;
import dev.canopy.probes.internal.schedule.ProbeLink;
import dev.canopy.probes.internal.schedule.ProbePlan;
import dev.canopy.probes.internal.schedule.ScheduleSettings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleBiFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Probe services behind the in-process WAN emulator: forecasts against the RTTs the emulator imposes. */
@Tag("slow")
class EmulatedGridProbeTest {

    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final int SAMPLES = 30;
    private static final double BUDGET = 200;

    /** Round-trip probes every 40 ms, bandwidth every 2 s; timeouts long enough for the slowest link. */
    private static ProbeSettings settings(Duration timeout) {
        ScheduleSettings schedule = ScheduleSettings.DEFAULTS.withLatencyPeriod(Duration.ofMillis(40))
                .withBandwidthPeriod(Duration.ofSeconds(2)).withMaxProbesPerNodePerSecond(BUDGET);
        int stalePeriods = (int) (timeout.toMillis() / 40 + 5);
        return ProbeSettings.around(schedule, ForecastSettings.DEFAULTS.withStalePeriods(stalePeriods))
                .withProbeTimeout(timeout);
    }

    private static LiveGrid emulated(List<String> sites, WanEmulator emulator, ProbeSettings settings) {
        return LiveGrid.start(sites, settings,
                (bare, coordinates, index) -> new WanEmulationLayer(bare, emulator, coordinates, 7L + index))
                .closeWith(emulator);
    }

    /** The RTT forecast of every representative link, keyed by "siteA|siteB" (plan order). */
    private static Map<String, LinkForecast> representativeForecasts(LiveGrid grid) {
        ProbePlan plan = Await.result(grid.service(0).plan());
        Map<String, LinkForecast> forecasts = new HashMap<>();
        for (ProbeLink link : plan.links()) {
            if (link.role() == LinkRole.REPRESENTATIVES) {
                Optional<LinkForecast> forecast = Await.result(grid.service(grid.members.indexOf(link.owner()))
                        .forecast(link.link(), Metric.ROUND_TRIP_TIME));
                forecast.ifPresent(f -> forecasts.put(link.owner().coordinates().site() + "|"
                        + link.peer().coordinates().site(), f));
            }
        }
        return forecasts;
    }

    /**
     * Awaits, with a deadline, the moment every site pair has SAMPLES samples and a forecast within max(5 %, 1 ms)
     * of its configured RTT (the first samples of a cold JVM are far off; the forecasts must recover from them).
     */
    private static void assertForecastsRecover(LiveGrid grid, int sitePairs, ToDoubleBiFunction<String, String> configured) {
        Await.until(DEADLINE, () -> misses(grid, sitePairs, configured).isEmpty(),
                () -> "every site pair within max(5 %, 1 ms) after " + SAMPLES + " samples; misses: "
                        + misses(grid, sitePairs, configured));
        for (ProbeService service : grid.services) {
            ProbeStatistics statistics = Await.result(service.statistics());
            assertThat(statistics.messagesPerSecond()).as("probe load of %s", service.self().id())
                    .isLessThanOrEqualTo(2 * BUDGET * 1.2);
            // A reply that arrives after its probe timed out (a loaded machine can hold one back for a second) is
            // dropped as unexpected, so such drops are allowed up to the number of lost probes; nothing else is
            // dropped.
            long lateReplies = statistics.dropped(DropReason.UNEXPECTED_REPLY);
            assertThat(statistics.droppedTotal() - lateReplies).as("drops at %s: %s", service.self().id(),
                    statistics.dropped()).isZero();
            assertThat(lateReplies).as("unexpected replies at %s, %d probes lost", service.self().id(),
                    statistics.lost()).isLessThanOrEqualTo(statistics.lost());
        }
    }

    private static List<String> misses(LiveGrid grid, int sitePairs, ToDoubleBiFunction<String, String> configured) {
        Map<String, LinkForecast> forecasts = representativeForecasts(grid);
        List<String> misses = new ArrayList<>();
        if (forecasts.size() < sitePairs) {
            misses.add("only " + forecasts.size() + " of " + sitePairs + " site pairs have forecasts");
        }
        forecasts.forEach((pair, forecast) -> {
            String[] sites = pair.split("\\|");
            double expected = configured.applyAsDouble(sites[0], sites[1]);
            double tolerance = Math.max(0.05 * expected, 1.0);
            if (!forecast.isFresh() || forecast.forecast().samples() < SAMPLES
                    || Math.abs(forecast.forecast().value() - expected) > tolerance) {
                misses.add(pair + ": configured " + expected + " ms, " + forecast.state() + " " + forecast.forecast());
            }
        });
        return misses;
    }

    @Test
    void forecastsLandWithinFivePercentOrOneMillisecondOfTheEightSiteExample() {
        GridModel grid = GridConfigs.defaultGrid();
        List<String> sites = grid.sites().stream().map(Site::name).toList();
        try (WanEmulator emulator = WanEmulator.start(GridWanEmulation.of(grid));
             LiveGrid live = emulated(sites, emulator, settings(Duration.ofMillis(900)))) {
            assertForecastsRecover(live, sites.size() * (sites.size() - 1) / 2,
                    (a, b) -> GridWanEmulation.of(grid).roundTripMs(a, b));
        }
    }

    @Test
    void replayOfAMeasuredAzureMatrixIsRecoveredByTheForecasts() throws IOException {
        Map<String, Double> rtt = new HashMap<>();
        List<String> regions = new ArrayList<>();
        WanEmulation table = WanEmulation.withDefaultRtt(0);
        for (String row : azureRows()) {
            String[] fields = row.split(",");
            String from = site(fields[0]);
            String to = site(fields[1]);
            double ms = Double.parseDouble(fields[2]);
            rtt.put(from + "|" + to, ms);
            table = table.withOneWayLink(from, to, LinkProfile.rtt(ms));
            if (!regions.contains(from)) {
                regions.add(from);
            }
        }
        try (WanEmulator emulator = WanEmulator.start(table);
             LiveGrid live = emulated(regions, emulator, settings(Duration.ofMillis(800)))) {
            // Each direction is delayed by half its own RTT, so the round trip is the mean of the two directions.
            assertForecastsRecover(live, regions.size() * (regions.size() - 1) / 2,
                    (a, b) -> (rtt.get(a + "|" + b) + rtt.get(b + "|" + a)) / 2);
        }
    }

    private static List<String> azureRows() throws IOException {
        try (InputStream in = EmulatedGridProbeTest.class.getResourceAsStream("/latency/azure_p50_8regions.csv")) {
            List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
            assertThat(lines.get(0)).isEqualTo("from,to,rtt_ms");
            return lines.subList(1, lines.size());
        }
    }

    /** Region names have spaces; sites become node-id material. */
    private static String site(String region) {
        return region.replace(' ', '-');
    }
}
