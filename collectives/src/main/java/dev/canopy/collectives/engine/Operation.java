package dev.canopy.collectives.engine;

/** The collective operations, with the code they carry in every frame header. */
public enum Operation {
    BARRIER, BCAST, SCATTER, SCATTERV, GATHER, GATHERV, ALLGATHER, ALLGATHERV, REDUCE, ALLREDUCE,
    REDUCE_SCATTER, SCAN, EXSCAN, ALLTOALL, ALLTOALLV;

    /** The operation name as the logs and the benchmark print it, e.g. {@code reduce_scatter}. */
    public String displayName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    static Operation fromCode(int code) {
        Operation[] all = values();
        if (code < 0 || code >= all.length) {
            throw new IllegalArgumentException("unknown collective operation code " + code);
        }
        return all[code];
    }
}
