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
}
