package dev.canopy.probes.internal.forecast;

import java.util.OptionalDouble;

/**
 * A sliding-window median whose window adapts: every candidate window is scored on its recent absolute
 * error (exponentially decayed, so the past fades) and the forecast uses the window that scores best.
 * Short windows win after a change in level, long windows while the series is steady but noisy.
 */
public final class AdaptiveWindowMedian implements Forecaster {

    /** How much of the previous error score survives each new sample. */
    private static final double ERROR_DECAY = 0.9;

    private final int[] windows;
    private final double[] decayedError;
    private final String name;

    public AdaptiveWindowMedian(int smallestWindow, int largestWindow) {
        WindowSizes.require(smallestWindow, "adaptive window median (smallest window)");
        if (largestWindow < smallestWindow) {
            throw new IllegalArgumentException("adaptive window median: largest window " + largestWindow
                    + " is below the smallest " + smallestWindow);
        }
        this.windows = WindowSizes.doubling(smallestWindow, largestWindow);
        this.decayedError = new double[windows.length];
        this.name = "adaptive-median-" + smallestWindow + "-" + largestWindow;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public OptionalDouble forecast(TimeSeries history) {
        if (history.isEmpty()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(medianOver(history, windows[bestWindow()]));
    }

    @Override
    public void observe(TimeSeries history, double sample) {
        if (history.isEmpty()) {
            return;
        }
        for (int i = 0; i < windows.length; i++) {
            double error = Math.abs(sample - medianOver(history, windows[i]));
            decayedError[i] = ERROR_DECAY * decayedError[i] + error;
        }
    }

    private int bestWindow() {
        int best = 0;
        for (int i = 1; i < windows.length; i++) {
            if (decayedError[i] < decayedError[best]) {
                best = i;
            }
        }
        return best;
    }

    private static double medianOver(TimeSeries history, int window) {
        return OrderStatistics.median(history.newestSamples(window));
    }
}
