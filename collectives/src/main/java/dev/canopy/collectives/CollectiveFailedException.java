package dev.canopy.collectives;

import java.util.OptionalInt;

/**
 * A collective could not complete on this member because another member failed or aborted it, or the
 * communicator was revoked. Every surviving member of the collective gets one, naming the rank that failed
 * first when one failed (not a member that left the job because of that failure: the root cause travels
 * with the abort); the communicator can then be revoked, shrunk to the survivors and used again.
 */
public final class CollectiveFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String operation;
    private final int sequence;
    private final int failedRank;

    public CollectiveFailedException(String operation, int sequence, int failedRank, String reason, Throwable cause) {
        super(operation + " #" + sequence + " failed: "
                + (failedRank >= 0 ? "rank " + failedRank + " failed (" + reason + ")" : reason), cause);
        this.operation = operation;
        this.sequence = sequence;
        this.failedRank = failedRank;
    }

    public String operation() {
        return operation;
    }

    /** The collective's sequence number on its communicator. */
    public int sequence() {
        return sequence;
    }

    /** The rank whose failure ended the collective (the first to fail), empty if it ended for another reason. */
    public OptionalInt failedRank() {
        return failedRank >= 0 ? OptionalInt.of(failedRank) : OptionalInt.empty();
    }
}
