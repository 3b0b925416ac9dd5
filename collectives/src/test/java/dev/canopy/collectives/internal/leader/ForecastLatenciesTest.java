package dev.canopy.collectives.internal.leader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.NodeId;
import dev.canopy.core.testing.ManualClock;
import dev.canopy.probes.internal.Link;
import dev.canopy.probes.internal.Metric;
import dev.canopy.probes.internal.forecast.ForecastSettings;
import dev.canopy.probes.internal.forecast.LinkForecasts;
import dev.canopy.topology.internal.graph.LatencySource;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The planner's input from real probe forecasts: fresh forecasts win, stale and unprobed links fall back. */
class ForecastLatenciesTest {

    private static final List<String> MEMBERS = List.of("a", "b", "c");
    private static final Link AB = Link.between(NodeId.of("a"), NodeId.of("b"));
    private static final Link BC = Link.between(NodeId.of("b"), NodeId.of("c"));
    private static final Duration PERIOD = Duration.ofSeconds(1);

    private final ManualClock clock = new ManualClock();
    private final LinkForecasts forecasts = new LinkForecasts(ForecastSettings.DEFAULTS, clock);

    @Test
    void aFreshForecastGivesHalfItsRoundTripInBothDirectionsAndUnprobedLinksFallBack() {
        forecasts.record(AB, Metric.ROUND_TRIP_TIME, 40, PERIOD);
        forecasts.record(AB, Metric.BANDWIDTH, 900, PERIOD);

        LatencySnapshot snapshot = new ForecastLatencies((from, to) -> 77).snapshot(MEMBERS, forecasts.all());

        assertThat(snapshot.oneWayMs("a", "b")).isEqualTo(20);
        assertThat(snapshot.oneWayMs("b", "a")).isEqualTo(20);
        assertThat(snapshot.oneWayMs("a", "c")).isEqualTo(77);
    }

    @Test
    void aStaleLinkTakesTheConfiguredValueOrIsExcluded() {
        forecasts.record(AB, Metric.ROUND_TRIP_TIME, 40, PERIOD);
        clock.advance(PERIOD.multipliedBy(3));
        forecasts.record(BC, Metric.ROUND_TRIP_TIME, 60, PERIOD);
        clock.advance(PERIOD.multipliedBy(3)); // a~b silent for 6 periods (stale after 5), b~c for 3

        LatencySnapshot configured = new ForecastLatencies((from, to) -> 77).snapshot(MEMBERS, forecasts.all());
        LatencySnapshot excluded = new ForecastLatencies((from, to) -> LatencySource.UNMEASURED).snapshot(MEMBERS, forecasts.all());

        assertThat(configured.oneWayMs("a", "b")).isEqualTo(77);
        assertThat(configured.oneWayMs("b", "c")).isEqualTo(30);
        assertThat(excluded.oneWayMs("a", "b")).isEqualTo(LatencySource.UNMEASURED);
        assertThat(excluded.oneWayMs("c", "b")).isEqualTo(30);
    }

    @Test
    void movesNameTheLinksThatChangedLargestFirst() {
        LatencySnapshot before = new LatencySnapshot(MEMBERS, new double[] {0, 10, 15, 10, 0, 10, 15, 10, 0});
        LatencySnapshot after = new LatencySnapshot(MEMBERS, new double[] {0, 10.2, 50, 10.2, 0, 12, 50, 12, 0});

        assertThat(after.movesSince(before, 0.05)).extracting(LatencySnapshot.Move::toString)
                .containsExactly("a~c 15.000->50.000 ms", "b~c 10.000->12.000 ms");
    }
}
