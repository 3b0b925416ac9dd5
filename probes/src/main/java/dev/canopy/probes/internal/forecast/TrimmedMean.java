package dev.canopy.probes.internal.forecast;

import java.util.Arrays;
import java.util.OptionalDouble;

/**
 * The mean of the newest {@code window} samples after dropping the lowest and highest {@code trimFraction}
 * of them: between the mean (uses every sample) and the median (robust to outliers).
 */
public final class TrimmedMean implements Forecaster {

    private final int window;
    private final double trimFraction;

    public TrimmedMean(int window, double trimFraction) {
        this.window = WindowSizes.require(window, "trimmed mean");
        if (!(trimFraction >= 0 && trimFraction < 0.5)) {
            throw new IllegalArgumentException("trimmed mean: trim fraction " + trimFraction
                    + " must be at least 0 and below 0.5 (the share cut from each end)");
        }
        this.trimFraction = trimFraction;
    }

    @Override
    public String name() {
        return "trimmed-mean-" + window;
    }

    @Override
    public OptionalDouble forecast(TimeSeries history) {
        if (history.isEmpty()) {
            return OptionalDouble.empty();
        }
        double[] samples = history.newestSamples(window);
        Arrays.sort(samples);
        int cut = (int) Math.floor(samples.length * trimFraction);
        double sum = 0;
        for (int i = cut; i < samples.length - cut; i++) {
            sum += samples[i];
        }
        return OptionalDouble.of(sum / (samples.length - 2 * cut));
    }
}
