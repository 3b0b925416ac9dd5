package dev.canopy.probes.internal.forecast;

/** Whether a link's forecast rests on recent samples. */
public enum LinkState {
    /** A sample arrived within the configured number of probe periods. */
    FRESH,
    /** No sample for longer than that: the link may be dead or its probes lost; the forecast is kept for reference. */
    STALE
}
