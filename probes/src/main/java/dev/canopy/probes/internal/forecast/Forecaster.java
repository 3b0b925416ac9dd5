package dev.canopy.probes.internal.forecast;

import java.util.OptionalDouble;

/**
 * One simple predictor of the next sample of a series, in the manner of the Network Weather Service.
 *
 * <p>The {@link ForecasterFamily} asks every forecaster for its forecast before it shows it the new sample,
 * so each forecaster is scored only on predictions it made without knowing the answer. A forecaster reads the
 * shared bounded history it is given and may keep state of its own, updated in {@link #observe}.
 * Instances are not thread-safe and belong to one family.
 */
public interface Forecaster {

    /** A short stable name for reports, e.g. {@code median-10}. */
    String name();

    /** The forecast of the next sample given the samples so far; empty while the forecaster has too little. */
    OptionalDouble forecast(TimeSeries history);

    /**
     * Shows the forecaster a new sample. {@code history} does not contain it yet; the family appends it
     * right after every forecaster has observed it.
     */
    default void observe(TimeSeries history, double sample) {
    }
}
