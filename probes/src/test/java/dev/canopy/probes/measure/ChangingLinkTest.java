package dev.canopy.probes.measure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.testing.Await;
import dev.canopy.probes.Metric;
import dev.canopy.probes.forecast.LinkForecast;
import dev.canopy.probes.schedule.ProbeLink;
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

    @Test
    void onALinkWithDelaySpikesAMedianTypeForecasterWins() {
        List<ExtraDelayLayer> layers = new ArrayList<>();
        try (LiveGrid grid = LiveGrid.start(List.of("a", "b"), ProbeServiceTest.FAST, (bare, coordinates, index) -> {
            ExtraDelayLayer layer = new ExtraDelayLayer(bare.context().owner(), bare, SEED + index);
            layer.setExtraMillis(10);
            layer.setSpikes(0.08, 50);
            layers.add(layer);
            return layer;
        })) {
            ProbeLink link = Await.result(grid.service(0).plan()).links().get(0);
            ProbeService owner = grid.service(grid.members.indexOf(link.owner()));
            Await.until(DEADLINE, () -> samples(owner, link) >= 200, () -> "200 samples on the spiky link");
            LinkForecast forecast = forecast(owner, link);
            assertThat(forecast.forecast().forecaster()).as("winner on a spiky link, seed %d: %s", SEED, forecast)
                    .contains("median");
            // Each direction is 10 ms late, spikes aside: the forecast stays near 20 ms (plus loopback), not
            // pulled up by the spikes' average of about 8 ms.
            assertThat(forecast.forecast().value()).as("%s", forecast).isBetween(19.0, 24.0);
        }
    }

    @Test
    void followsAStepInRoundTripTimeWithinABoundedNumberOfPeriods() {
        List<ExtraDelayLayer> layers = new ArrayList<>();
        try (LiveGrid grid = LiveGrid.start(List.of("a", "b"), ProbeServiceTest.FAST, (bare, coordinates, index) -> {
            ExtraDelayLayer layer = new ExtraDelayLayer(bare.context().owner(), bare, SEED + index);
            layers.add(layer);
            return layer;
        })) {
            ProbeLink link = Await.result(grid.service(0).plan()).links().get(0);
            ProbeService owner = grid.service(grid.members.indexOf(link.owner()));
            Await.until(DEADLINE, () -> samples(owner, link) >= 40, () -> "40 samples before the step");
            double before = forecast(owner, link).forecast().value();

            layers.forEach(layer -> layer.setExtraMillis(15)); // request and reply each 15 ms later
            long samplesAtStep = samples(owner, link);
            double after = before + 30;
            double tolerance = Math.max(0.05 * after, 1.0);
            Await.until(DEADLINE, () -> Math.abs(forecast(owner, link).forecast().value() - after) <= tolerance,
                    () -> "forecast within " + tolerance + " ms of " + after + " ms: " + forecast(owner, link));
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
