package dev.canopy.probes.internal.forecast;

import java.util.OptionalDouble;

/** Predicts that the next sample equals the newest one. Best on series that move in steps. */
public final class LastValue implements Forecaster {

    @Override
    public String name() {
        return "last-value";
    }

    @Override
    public OptionalDouble forecast(TimeSeries history) {
        return history.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(history.newest());
    }
}
