package dev.canopy.core.transport;

/** How a wait for the end of a peer's connections to this node ended ({@link Transport#awaitInboundEnd}). */
public enum InboundEnd {
    /** The peer had connected, and all its connections have closed: every frame it wrote to us has been handed up. */
    CONNECTIONS_CLOSED,
    /** A connection of the peer is still open, or it never connected, and the time allowed has passed. */
    TIMED_OUT,
    /** This transport closed; nothing more arrives from anyone. */
    TRANSPORT_CLOSED
}
