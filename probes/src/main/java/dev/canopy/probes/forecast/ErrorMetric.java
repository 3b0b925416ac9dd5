package dev.canopy.probes.forecast;

/** How forecasters are ranked against each other: by their mean squared or mean absolute error so far. */
public enum ErrorMetric {
    /** The Network Weather Service default; punishes large misses most. */
    MEAN_SQUARED,
    /** Favours median-type forecasters on series with occasional spikes. */
    MEAN_ABSOLUTE
}
