package dev.canopy.multicast.internal.fabric;

import java.nio.ByteBuffer;

/** Receives a datagram from a fabric, in a buffer the endpoint had posted; the owner re-posts it after reading. */
@FunctionalInterface
public interface ReceiveHandler {

    void received(MulticastGroup group, ByteBuffer datagram);

    /**
     * The datagrams handed over together (those that arrived while the owner loop was busy) have all been
     * {@link #received}: a handler may act once for the lot, e.g. send one acknowledgement instead of several.
     */
    default void batchDone() {
    }
}
