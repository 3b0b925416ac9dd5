package dev.canopy.dynamic;

/** How an inter-communicator collective crosses between the two groups. */
public enum InterPhase {
    /**
     * Between the pair of members (one per group) with the lowest round trip measured when the
     * inter-communicator was made; a rooted operation crosses between its root and the remote member
     * nearest to it. Each group's intra-group phase runs on its topology plan rooted there.
     */
    TOPOLOGY,
    /**
     * The seed's flat baseline, for comparison: crosses between the rank 0s of both groups (a rooted operation:
     * between its root and the remote rank 0), and each group's intra-group phase runs on binomial trees over its
     * ranks, blind to sites (as an MPI intra-communicator's defaults), pipelined as the topology plan's trees are.
     */
    FLAT
}
