package dev.canopy.core.transport;

import dev.canopy.core.node.NodeId;

/**
 * A frame waited longer than the drain timeout for the peer's write queue to drain (the peer stopped
 * reading), or an emulated link's queue refused a datagram. Nothing of the frame was sent. A merely full
 * queue is not this: sends wait their turn ({@link Transport#drained}).
 */
public final class BackPressureException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient NodeId peer;
    private final long queuedBytes;

    public BackPressureException(NodeId peer, long queuedBytes, String detail) {
        super("back pressure from peer " + peer + ": " + queuedBytes + " bytes queued; " + detail, null, false, false);
        this.peer = peer;
        this.queuedBytes = queuedBytes;
    }

    public NodeId peer() {
        return peer;
    }

    public long queuedBytes() {
        return queuedBytes;
    }
}
