package dev.canopy.probes.internal.forecast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.node.NodeId;
import dev.canopy.core.testing.ManualClock;
import dev.canopy.probes.internal.Link;
import dev.canopy.probes.internal.Metric;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LinkForecastsTest {

    private static final Duration PERIOD = Duration.ofMillis(100);
    private static final Link LINK = Link.between(NodeId.of("b"), NodeId.of("a"));

    private final ManualClock clock = new ManualClock();
    private final LinkForecasts forecasts = new LinkForecasts(ForecastSettings.DEFAULTS.withStalePeriods(3), clock);
    private final List<LinkForecast> heard = new ArrayList<>();

    LinkForecastsTest() {
        forecasts.subscribe(heard::add);
    }

    private void sample(double rttMs) {
        clock.advance(PERIOD);
        forecasts.record(LINK, Metric.ROUND_TRIP_TIME, rttMs, PERIOD);
    }

    @Test
    void tellsSubscribersOfTheFirstForecastAndOfMovesBeyondTheThresholdOnly() {
        sample(20);
        sample(20.1);
        sample(20.2);
        assertThat(heard).hasSize(1);
        assertThat(heard.get(0).forecast().value()).isEqualTo(20);
        for (int i = 0; i < 5; i++) {
            sample(40);
        }
        assertThat(heard).hasSizeGreaterThan(1);
        assertThat(heard.get(heard.size() - 1).forecast().value()).isEqualTo(40);
        assertThat(heard).allMatch(LinkForecast::isFresh);
    }

    @Test
    void marksASilentLinkStaleAfterTheConfiguredPeriodsAndSaysSo() {
        for (int i = 0; i < 10; i++) {
            sample(25);
        }
        clock.advance(PERIOD.multipliedBy(2));
        forecasts.expireStale();
        assertThat(forecasts.forecast(LINK, Metric.ROUND_TRIP_TIME).orElseThrow().state()).isEqualTo(LinkState.FRESH);

        forecasts.recordLoss(LINK, Metric.ROUND_TRIP_TIME); // a lost probe is no sign of life
        clock.advance(PERIOD.multipliedBy(2));
        forecasts.expireStale();

        LinkForecast dead = forecasts.forecast(LINK, Metric.ROUND_TRIP_TIME).orElseThrow();
        assertThat(dead.state()).isEqualTo(LinkState.STALE);
        assertThat(dead.forecast().value()).isEqualTo(25);
        assertThat(dead.lost()).isEqualTo(1);
        assertThat(heard.get(heard.size() - 1)).isEqualTo(dead);
        assertThat(forecasts.all()).containsExactly(dead);
    }

    @Test
    void aStaleLinkThatAnswersAgainStartsAFreshHistory() {
        for (int i = 0; i < 10; i++) {
            sample(25);
        }
        clock.advance(PERIOD.multipliedBy(10));
        forecasts.expireStale();
        sample(80);
        LinkForecast back = forecasts.forecast(LINK, Metric.ROUND_TRIP_TIME).orElseThrow();
        assertThat(back.state()).isEqualTo(LinkState.FRESH);
        assertThat(back.forecast().value()).isEqualTo(80);
        assertThat(back.forecast().samples()).isEqualTo(1);
        assertThat(heard).extracting(LinkForecast::state)
                .containsExactly(LinkState.FRESH, LinkState.STALE, LinkState.FRESH);
    }

    @Test
    void keepsMetricsAndLinksApartAndRefusesNonsense() {
        sample(10);
        forecasts.record(LINK, Metric.BANDWIDTH, 90, PERIOD);
        assertThat(forecasts.all()).extracting(LinkForecast::metric)
                .containsExactly(Metric.ROUND_TRIP_TIME, Metric.BANDWIDTH);
        assertThat(forecasts.forecast(Link.between(NodeId.of("a"), NodeId.of("c")), Metric.ROUND_TRIP_TIME)).isEmpty();
        assertThatThrownBy(() -> forecasts.record(LINK, Metric.ROUND_TRIP_TIME, -1, PERIOD))
                .hasMessageContaining("a~b");
        assertThatThrownBy(() -> forecasts.record(LINK, Metric.ROUND_TRIP_TIME, 1, Duration.ZERO))
                .hasMessageContaining("must be positive");
        assertThatThrownBy(() -> Link.between(NodeId.of("a"), NodeId.of("a"))).hasMessageContaining("two different");
    }

    @Test
    void aClosedSubscriptionHearsNothingMore() {
        List<LinkForecast> other = new ArrayList<>();
        Subscription subscription = forecasts.subscribe(other::add);
        sample(10);
        subscription.close();
        sample(50);
        assertThat(other).hasSize(1);
    }
}
