package dev.canopy.core.transport;

import dev.canopy.core.node.NodeId;

/**
 * A send was refused (or timed out waiting) because the peer's write queue is full: the peer is
 * not reading as fast as we write. Nothing of the frame was sent; the caller may retry later.
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
