package dev.canopy.topology.internal.graph;

/**
 * Forecast one-way latencies between named nodes. Implemented by {@link LatencyGraph}; a runtime can
 * implement it over its forecasters, and benchmarks over a synthetic model, without materialising a
 * full matrix.
 */
@FunctionalInterface
public interface LatencySource {

    /** Value returned for a pair without a measured link. */
    double UNMEASURED = Double.POSITIVE_INFINITY;

    /**
     * One-way latency in milliseconds of the link {@code from -> to}, or {@link #UNMEASURED}
     * (positive infinity) when it was not measured. Never called with {@code from.equals(to)}.
     */
    double oneWayMs(String from, String to);
}
