package dev.canopy.probes.internal.forecast;

import java.util.OptionalDouble;

/** The median of the newest {@code window} samples: ignores isolated spikes that drag a mean. */
public final class SlidingWindowMedian implements Forecaster {

    private final int window;

    public SlidingWindowMedian(int window) {
        this.window = WindowSizes.require(window, "sliding-window median");
    }

    @Override
    public String name() {
        return "median-" + window;
    }

    @Override
    public OptionalDouble forecast(TimeSeries history) {
        if (history.isEmpty()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(OrderStatistics.median(history.newestSamples(window)));
    }
}
