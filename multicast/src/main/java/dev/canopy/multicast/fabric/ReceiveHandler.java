package dev.canopy.multicast.fabric;

import java.nio.ByteBuffer;

/** Receives a datagram from a fabric, in a buffer the endpoint had posted; the owner re-posts it after reading. */
@FunctionalInterface
public interface ReceiveHandler {

    void received(MulticastGroup group, ByteBuffer datagram);
}
