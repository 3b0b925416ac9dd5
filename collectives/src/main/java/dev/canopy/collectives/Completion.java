package dev.canopy.collectives;

/**
 * When a rooted collective's future completes on a member (bcast, scatter, scatterv, gather,
 * gatherv, reduce; the others depend on every member anyway).
 */
public enum Completion {
    /**
     * As in MPI: as soon as this member's part is done (a gather's sender once its data left, a
     * bcast's receiver once it has the data). A member failing mid-collective fails it on the members
     * that depended on it; the others complete with correct results. Fastest.
     */
    LOCAL,
    /**
     * Only once the collective completed everywhere: a member failing mid-collective fails it on every
     * survivor, naming the failed rank, so all survivors agree. Costs one extra tree pass after gather
     * and reduce and two after bcast and scatter.
     */
    AGREED
}
