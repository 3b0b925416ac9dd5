package dev.canopy.core.comm;

import dev.canopy.core.node.NodeId;

/**
 * A send or receive involved a rank whose node has left the job or failed. Carries the rank (in the
 * communicator where the operation was made), the node id, why it is considered failed, and the rank that
 * failed first: the same rank when it failed itself, another one when this rank left the job on purpose
 * after that one had failed (so a program that shrinks or reports on the failure names the right rank).
 */
public final class RankFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int rank;
    private final NodeId node;
    private final String reason;
    private final int rootCauseRank;

    public RankFailedException(int rank, NodeId node, String reason) {
        this(rank, node, reason, rank);
    }

    public RankFailedException(int rank, NodeId node, String reason, int rootCauseRank) {
        super("rank " + rank + " (node " + node + ") failed: " + reason);
        this.rank = rank;
        this.node = node;
        this.reason = reason;
        this.rootCauseRank = rootCauseRank;
    }

    public int rank() {
        return rank;
    }

    public NodeId node() {
        return node;
    }

    public String reason() {
        return reason;
    }

    /** The rank whose failure came first: {@link #rank()} unless that rank left on purpose after another failed. */
    public int rootCauseRank() {
        return rootCauseRank;
    }
}
