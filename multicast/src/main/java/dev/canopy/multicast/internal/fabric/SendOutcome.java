package dev.canopy.multicast.internal.fabric;

/** What a fabric did with a datagram handed to {@link Fabric#send}: expected outcomes, not exceptions. */
public enum SendOutcome {
    /** Taken by the fabric; it may still be lost on the way. */
    SENT,
    /** Longer than {@link Fabric#mtu()}: not sent. */
    TOO_LARGE,
    /** The endpoint has not joined the group: not sent. */
    NOT_JOINED,
    /** The endpoint is closed: not sent. */
    CLOSED,
    /** The fabric could not send it (no route for the group, interface down, ...): not sent. */
    FAILED
}
