package dev.canopy.collectives.internal.engine;

import dev.canopy.collectives.data.MalformedMessageException;
import java.util.Locale;

/**
 * The collective operations, each with the code it carries in every frame header. Codes are fixed
 * forever, not enum ordinals: a new operation takes a new code.
 */
public enum Operation {
    BARRIER(0), BCAST(1), SCATTER(2), SCATTERV(3), GATHER(4), GATHERV(5), ALLGATHER(6), ALLGATHERV(7), REDUCE(8),
    ALLREDUCE(9), REDUCE_SCATTER(10), SCAN(11), EXSCAN(12), ALLTOALL(13), ALLTOALLV(14);

    private static final Operation[] BY_CODE = new Operation[256];

    static {
        for (Operation operation : values()) {
            BY_CODE[operation.code] = operation;
        }
    }

    private final int code;

    Operation(int code) {
        this.code = code;
    }

    /** The byte written at {@link CollectiveFrame}'s operation offset. */
    public int code() {
        return code;
    }

    /** The operation name as the logs and the benchmark print it, e.g. {@code reduce_scatter}. */
    public String displayName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The operation of a wire code (an unsigned byte); an unknown one is a {@link MalformedMessageException}. */
    public static Operation fromCode(int code) {
        Operation operation = code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
        if (operation == null) {
            throw new MalformedMessageException("unknown collective operation code " + code);
        }
        return operation;
    }
}
