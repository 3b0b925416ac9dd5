package dev.canopy.probes.internal.forecast;

import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Exponential smoothing: {@code forecast = forecast + gain * (sample - forecast)}. A high gain follows
 * changes fast and passes noise through; a low gain smooths noise and lags behind changes.
 */
public final class ExponentialSmoothing implements Forecaster {

    private final double gain;
    private final String name;
    private boolean started;
    private double level;

    public ExponentialSmoothing(double gain) {
        if (!(gain > 0 && gain <= 1)) {
            throw new IllegalArgumentException("exponential smoothing gain " + gain + " must be in (0, 1]");
        }
        this.gain = gain;
        this.name = String.format(Locale.ROOT, "exp-smoothing-%.2f", gain);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public OptionalDouble forecast(TimeSeries history) {
        return started ? OptionalDouble.of(level) : OptionalDouble.empty();
    }

    @Override
    public void observe(TimeSeries history, double sample) {
        if (started) {
            level += gain * (sample - level);
        } else {
            level = sample;
            started = true;
        }
    }
}
