package dev.canopy.collectives.internal.engine;

/** Predicted one-way latencies between the ranks of a communicator, e.g. a plan's. */
@FunctionalInterface
public interface RankLatencies {

    /**
     * Milliseconds from {@code from} to {@code to}, or positive infinity when nothing predicts that
     * link; 0 for a rank to itself.
     */
    double oneWayMs(int from, int to);
}
