package dev.canopy.probes.internal.forecast;

import java.util.OptionalDouble;

/** The mean of every sample ever seen, not only those the bounded history still holds. */
public final class RunningMean implements Forecaster {

    private long count;
    private double mean;

    @Override
    public String name() {
        return "running-mean";
    }

    @Override
    public OptionalDouble forecast(TimeSeries history) {
        return count == 0 ? OptionalDouble.empty() : OptionalDouble.of(mean);
    }

    @Override
    public void observe(TimeSeries history, double sample) {
        count++;
        mean += (sample - mean) / count; // incremental form: no sum that grows without bound
    }
}
