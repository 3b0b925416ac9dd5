package dev.canopy.probes.internal;

/** What a probe measures on a link. */
public enum Metric {
    /** Round-trip time of a small UDP echo, in milliseconds. */
    ROUND_TRIP_TIME("ms"),
    /** Throughput of a timed TCP transfer, in megabits per second. */
    BANDWIDTH("Mbit/s");

    private final String unit;

    Metric(String unit) {
        this.unit = unit;
    }

    public String unit() {
        return unit;
    }
}
