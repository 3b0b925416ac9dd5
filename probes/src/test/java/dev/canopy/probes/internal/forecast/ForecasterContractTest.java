package dev.canopy.probes.internal.forecast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;

/** What every forecaster promises, checked on each implementation of the standard family. */
class ForecasterContractTest {

    static List<Supplier<Forecaster>> implementations() {
        return List.of(LastValue::new, RunningMean::new, () -> new SlidingWindowMean(5),
                () -> new SlidingWindowMedian(4), () -> new TrimmedMean(10, 0.2),
                () -> new ExponentialSmoothing(0.3), () -> new AdaptiveWindowMedian(2, 16));
    }

    @Provide
    Arbitrary<Supplier<Forecaster>> forecasters() {
        return Arbitraries.of(implementations());
    }

    @Property(tries = 200)
    void forecastsNothingBeforeTheFirstSampleAndStaysWithinTheRangeSeenAfter(
            @ForAll("forecasters") Supplier<Forecaster> factory,
            @ForAll @Size(min = 1, max = 40) List<@DoubleRange(min = 0.01, max = 900) Double> samples) {
        Forecaster forecaster = factory.get();
        TimeSeries history = new TimeSeries(64);
        assertThat(forecaster.forecast(history)).isEmpty();
        for (double sample : samples) {
            forecaster.observe(history, sample);
            history.add(sample);
        }
        double min = samples.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double max = samples.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        assertThat(forecaster.forecast(history).orElseThrow()).isBetween(min - 1e-9, max + 1e-9);
    }

    @Property(tries = 50)
    void forecastsAConstantSeriesExactly(@ForAll("forecasters") Supplier<Forecaster> factory,
                                         @ForAll @DoubleRange(min = 0.01, max = 900) double level) {
        Forecaster forecaster = factory.get();
        TimeSeries history = new TimeSeries(64);
        for (int i = 0; i < 20; i++) {
            forecaster.observe(history, level);
            history.add(level);
        }
        assertThat(forecaster.forecast(history).orElseThrow()).isCloseTo(level, within(1e-9));
        assertThat(forecaster.name()).isNotBlank();
    }
}
