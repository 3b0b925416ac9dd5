package dev.canopy.core.comm;

import dev.canopy.core.node.NodeId;

/**
 * A send or receive involved a rank whose node has left the job or failed. Carries the rank (in the
 * communicator where the operation was made), the node id and why it is considered failed.
 */
public final class RankFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int rank;
    private final NodeId node;
    private final String reason;

    public RankFailedException(int rank, NodeId node, String reason) {
        super("rank " + rank + " (node " + node + ") failed: " + reason);
        this.rank = rank;
        this.node = node;
        this.reason = reason;
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
}
