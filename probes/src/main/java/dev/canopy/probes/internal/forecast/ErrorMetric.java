package dev.canopy.probes.internal.forecast;

/** How forecasters are ranked against each other: by their mean squared or mean absolute error so far. */
public enum ErrorMetric {
    /** The Network Weather Service's classic ranking; punishes large misses most, favours mean-type forecasters. */
    MEAN_SQUARED,
    /** Canopy's default: favours median-type forecasters on series with occasional spikes (see ForecastSettings). */
    MEAN_ABSOLUTE
}
