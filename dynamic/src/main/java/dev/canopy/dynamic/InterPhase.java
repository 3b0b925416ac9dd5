package dev.canopy.dynamic;

/** How an inter-communicator collective crosses between the two groups. */
public enum InterPhase {
    /**
     * Between the pair of members (one per group) with the lowest round trip measured when the
     * inter-communicator was made; a rooted operation crosses between its root and the remote member
     * nearest to it. Each group's intra-group phase runs on its topology plan rooted there.
     */
    TOPOLOGY,
    /** Between the rank 0s of both groups (a rooted operation: between its root and the remote rank 0), for comparison. */
    FLAT
}
