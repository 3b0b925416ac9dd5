package dev.canopy.core.comm;

import dev.canopy.core.node.NodeId;

/**
 * A send failed because its receiver rejected this node's frames: they went beyond the credit it had
 * granted (see {@link FlowProtocol}). Every later send to that node fails the same way, since the two
 * no longer agree on what is in flight.
 */
public final class MessageRejectedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int rank;
    private final NodeId node;

    public MessageRejectedException(int rank, NodeId node, String reason) {
        super("rank " + rank + " (node " + node + ") rejected this node's messages: " + reason);
        this.rank = rank;
        this.node = node;
    }

    public int rank() {
        return rank;
    }

    public NodeId node() {
        return node;
    }
}
