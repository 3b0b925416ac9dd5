package dev.canopy.probes.internal.measure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.testing.Await;
import dev.canopy.probes.internal.Metric;
import dev.canopy.probes.internal.forecast.Forecast;
import dev.canopy.probes.internal.forecast.ForecastSettings;
import dev.canopy.probes.internal.forecast.LinkForecast;
import dev.canopy.probes.internal.schedule.ProbeLink;
import dev.canopy.probes.internal.schedule.ScheduleSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Live links whose delay changes while they are probed: a step up must be followed within a few periods, and
 * on a link with occasional delay spikes a median-type forecaster must win.
 */
class ChangingLinkTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    /** Periods (samples) the forecast may take to settle on the new level. */
    private static final int BOUND = 10;
    private static final long SEED = 11;
    /**
     * {@link ProbeServiceTest#FAST}'s 20 ms period, but a link stays fresh through 5 s without a sample (FAST: 100 ms)
     * and a probe waits 500 ms for its answer: on a loaded machine a 100 ms pause made the link stale, which restarts
     * its history, so the sample count the step is measured in began again from 1. Staleness is not what these
     * tests are about.
     */
    private static final ProbeSettings STEADY = ProbeSettings.around(
            ScheduleSettings.DEFAULTS.withLatencyPeriod(Duration.ofMillis(20)).withBandwidthPeriod(Duration.ofMillis(200)),
            ForecastSettings.DEFAULTS.withStalePeriods(250)).withProbeTimeout(Duration.ofMillis(500));

    @Test
    void onALinkWithDelaySpikesAMedianTypeForecasterWins() {
        List<ExtraDelayLayer> layers = new ArrayList<>();
        try (LiveGrid grid = LiveGrid.start(List.of("a", "b"), STEADY, (bare, coordinates, index) -> {
            ExtraDelayLayer layer = new ExtraDelayLayer(bare.context().owner(), bare, SEED + index);
            layer.setExtraMillis(10);
            layer.setSpikes(0.08, 50);
            layers.add(layer);
            return layer;
        })) {
            ProbeLink link = Await.result(grid.service(0).plan()).links().get(0);
            ProbeService owner = grid.service(grid.members.indexOf(link.owner()));
            Await.until(DEADLINE, () -> samples(owner, link) >= 200, () -> "200 samples on the spiky link");
            // Each direction is 10 ms late, spikes aside: the forecast stays near 20 ms (plus loopback), not pulled
            // up by the spikes' average of about 8 ms. Load on the machine adds delay to every sample for as long as
            // it lasts (a median of 54 ms was seen beside another test), so the forecast is awaited there; a
            // mean-type forecaster never gets there, since the spikes keep it near 28 ms and load only adds.
            Await.until(DEADLINE, () -> {
                Forecast forecast = forecast(owner, link).forecast();
                return forecast.forecaster().contains("median") && forecast.value() >= 19.0 && forecast.value() <= 24.0;
            }, () -> "a median-type forecaster winning at 19 to 24 ms on a spiky link, seed " + SEED + ": "
                    + forecast(owner, link));
        }
    }

    @Test
    void followsAStepInRoundTripTimeWithinABoundedNumberOfPeriods() {
        List<ExtraDelayLayer> layers = new ArrayList<>();
        try (LiveGrid grid = LiveGrid.start(List.of("a", "b"), STEADY, (bare, coordinates, index) -> {
            ExtraDelayLayer layer = new ExtraDelayLayer(bare.context().owner(), bare, SEED + index);
            layers.add(layer);
            return layer;
        })) {
            ProbeLink link = Await.result(grid.service(0).plan()).links().get(0);
            ProbeService owner = grid.service(grid.members.indexOf(link.owner()));
            // The level before the step is the lowest forecast of the last 20 samples: load on the machine only
            // adds delay, so the lowest is the closest to the link's own RTT.
            Await.until(DEADLINE, () -> samples(owner, link) >= 20, () -> "20 samples before the step");
            double[] lowest = {Double.MAX_VALUE};
            Await.until(DEADLINE, () -> {
                lowest[0] = Math.min(lowest[0], forecast(owner, link).forecast().value());
                return samples(owner, link) >= 40;
            }, () -> "40 samples before the step");
            double before = lowest[0];

            layers.forEach(layer -> layer.setExtraMillis(15)); // request and reply each 15 ms later
            long samplesAtStep = samples(owner, link);
            // Followed: the forecast has risen by most of the 30 ms step. Load adds delay and makes single samples
            // noisy (a last-value forecaster can win then), so the forecast is not asked to sit within a few percent
            // of the new level; a forecaster that ignored the step stays below this by 24 ms minus the noise.
            double risen = before + 0.8 * 30;
            Await.until(DEADLINE, () -> forecast(owner, link).forecast().value() >= risen,
                    () -> "forecast at least " + risen + " ms: " + forecast(owner, link));
            long periods = samples(owner, link) - samplesAtStep;
            assertThat(periods).as("samples until the forecast followed the step (%s)", forecast(owner, link))
                    .isLessThanOrEqualTo(BOUND);
        }
    }

    private static LinkForecast forecast(ProbeService service, ProbeLink link) {
        return Await.result(service.forecast(link.link(), Metric.ROUND_TRIP_TIME)).orElseThrow();
    }

    private static long samples(ProbeService service, ProbeLink link) {
        return Await.result(service.forecast(link.link(), Metric.ROUND_TRIP_TIME))
                .map(f -> f.forecast().samples()).orElse(0L);
    }
}
