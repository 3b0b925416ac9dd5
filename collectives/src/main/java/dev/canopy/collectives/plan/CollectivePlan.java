package dev.canopy.collectives.plan;

import dev.canopy.collectives.engine.RootedTree;

/**
 * The trees a communicator's collectives follow, one per root, under an epoch. Every member must
 * run a collective with the same plan; frames carry the epoch and a mismatch fails the collective.
 */
public interface CollectivePlan {

    /** Identifies this plan; equal epochs mean equal trees on every member. */
    long epoch();

    /** The tree over all ranks of the communicator, rooted at {@code root}. */
    RootedTree tree(int root);

    /**
     * The one-way latency in ms from rank {@code from} to rank {@code to} that this plan was computed
     * from (configured, or the leader's forecasts for a live plan); positive infinity where nothing
     * predicts that link, 0 from a rank to itself. Equal epochs mean equal latencies on every member.
     */
    double oneWayMs(int from, int to);
}
