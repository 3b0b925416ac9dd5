package dev.canopy.collectives.internal.multicast;

import dev.canopy.multicast.internal.groups.GroupPolicy;

/**
 * What a one-to-many call moves, as {@code auto}'s cost model needs it: how many targets, how many bytes each, and
 * whether they all get the same bytes (a bcast). A multicast policy sends the packed pieces once (a bcast's one
 * piece once); the tree sends every target its piece, so a bcast to 28 costs it 28 pieces and a static multicast one.
 *
 * @param bytesPerTarget a piece (scatterv: the mean piece, so {@code targets x bytesPerTarget} is what moves)
 * @param shared         every target gets the same piece (bcast)
 */
record CallShape(int targets, long bytesPerTarget, boolean shared) {

    CallShape {
        if (targets < 1 || bytesPerTarget < 0) {
            throw new IllegalArgumentException("a one-to-many call of " + targets + " targets x " + bytesPerTarget
                    + " bytes");
        }
    }

    static CallShape scatter(int targets, long bytesPerTarget) {
        return new CallShape(targets, bytesPerTarget, false);
    }

    /** The bytes {@code policy} sends from the root for this call: once per multicast, once per target by tree. */
    long bytes(GroupPolicy policy) {
        return shared && policy != GroupPolicy.TREE ? bytesPerTarget : targets * bytesPerTarget;
    }

    @Override
    public String toString() {
        return targets + " targets x " + bytesPerTarget + " B" + (shared ? " (the same piece)" : "");
    }
}
