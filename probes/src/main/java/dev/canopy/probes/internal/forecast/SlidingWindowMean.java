package dev.canopy.probes.internal.forecast;

import java.util.OptionalDouble;

/** The mean of the newest {@code window} samples (of all of them while fewer are held). */
public final class SlidingWindowMean implements Forecaster {

    private final int window;

    public SlidingWindowMean(int window) {
        this.window = WindowSizes.require(window, "sliding-window mean");
    }

    @Override
    public String name() {
        return "mean-" + window;
    }

    @Override
    public OptionalDouble forecast(TimeSeries history) {
        if (history.isEmpty()) {
            return OptionalDouble.empty();
        }
        int n = Math.min(window, history.size());
        double sum = 0;
        for (int age = 0; age < n; age++) {
            sum += history.get(age);
        }
        return OptionalDouble.of(sum / n);
    }
}
