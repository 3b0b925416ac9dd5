package dev.canopy.core.comm;

import java.util.OptionalInt;

/**
 * An operation on a revoked communicator ({@link Communicator#revoke()}): pending and later sends,
 * receives and collectives fail with it on every member, so all survivors leave a broken operation
 * at once. {@link Communicator#agree} and {@link Communicator#shrink()} still work on it.
 */
public final class CommunicatorRevokedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int contextId;
    private final int revokedBy;
    private final int causeRank;

    /**
     * @param revokedBy the rank that called revoke
     * @param causeRank the rank whose failure it revoked for, -1 when it knew none
     */
    public CommunicatorRevokedException(int contextId, int revokedBy, int causeRank) {
        super("communicator " + contextId + " was revoked by rank " + revokedBy
                + (causeRank >= 0 ? " after rank " + causeRank + " failed" : ""), null, false, false);
        this.contextId = contextId;
        this.revokedBy = revokedBy;
        this.causeRank = causeRank;
    }

    public int contextId() {
        return contextId;
    }

    public int revokedBy() {
        return revokedBy;
    }

    /** The failed rank the revocation was for, when the revoking member knew one. */
    public OptionalInt causeRank() {
        return causeRank >= 0 ? OptionalInt.of(causeRank) : OptionalInt.empty();
    }
}
