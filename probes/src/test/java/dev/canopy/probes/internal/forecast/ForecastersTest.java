package dev.canopy.probes.internal.forecast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The arithmetic of each forecaster on small hand-checked series. */
class ForecastersTest {

    private static double run(Forecaster forecaster, double... samples) {
        TimeSeries history = new TimeSeries(64);
        for (double sample : samples) {
            forecaster.observe(history, sample);
            history.add(sample);
        }
        return forecaster.forecast(history).orElseThrow();
    }

    @Test
    void eachForecasterComputesItsMethod() {
        assertThat(run(new LastValue(), 1, 2, 7)).isEqualTo(7);
        assertThat(run(new RunningMean(), 1, 2, 3, 10)).isEqualTo(4);
        assertThat(run(new SlidingWindowMean(2), 1, 2, 3, 10)).isEqualTo(6.5);
        assertThat(run(new SlidingWindowMedian(3), 1, 2, 100, 3)).isEqualTo(3);
        assertThat(run(new SlidingWindowMedian(4), 1, 2, 100, 3)).isEqualTo(2.5);
        // 10 samples, 20 % trimmed: drop the lowest two and the highest two.
        assertThat(run(new TrimmedMean(10, 0.2), 1, 5, 5, 5, 5, 5, 5, 500, 2, 900)).isEqualTo(5);
        assertThat(run(new ExponentialSmoothing(0.5), 10, 20, 30)).isCloseTo(22.5, within(1e-12));
    }

    @Test
    void adaptiveMedianMovesToItsShortWindowAfterAStep() {
        AdaptiveWindowMedian adaptive = new AdaptiveWindowMedian(3, 24);
        TimeSeries history = new TimeSeries(64);
        for (int i = 0; i < 40; i++) {
            double sample = i < 30 ? 10 : 50;
            adaptive.observe(history, sample);
            history.add(sample);
        }
        // A 24-sample median would still say 10; the 3-sample window has followed the step.
        assertThat(adaptive.forecast(history).orElseThrow()).isEqualTo(50);
    }

    @Test
    void refusesParametersThatMakeNoForecaster() {
        assertThatThrownBy(() -> new SlidingWindowMean(0)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> new TrimmedMean(10, 0.5)).hasMessageContaining("below 0.5");
        assertThatThrownBy(() -> new ExponentialSmoothing(0)).hasMessageContaining("(0, 1]");
        assertThatThrownBy(() -> new AdaptiveWindowMedian(8, 4)).hasMessageContaining("below the smallest");
    }
}
