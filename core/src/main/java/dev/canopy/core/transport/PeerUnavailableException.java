package dev.canopy.core.transport;

import dev.canopy.core.node.NodeId;

/**
 * A send failed because the peer is gone: declared so by membership, or unreachable after the
 * bounded reconnect attempts. The caller decides what that means (abort the collective, wait for
 * a new view, ...).
 */
public final class PeerUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient NodeId peer;
    private final String reason;

    public PeerUnavailableException(NodeId peer, String reason) {
        super("peer " + peer + " unavailable: " + reason, null, false, false);
        this.peer = peer;
        this.reason = reason;
    }

    public NodeId peer() {
        return peer;
    }

    public String reason() {
        return reason;
    }
}
