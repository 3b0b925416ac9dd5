package dev.canopy.multicast.internal.fabric.emulated;

/**
 * What the emulated switch did, per receiver copy: {@code copies} datagram copies routed to receivers,
 * {@code lost}, {@code duplicated} and {@code reordered} by fault injection, {@code droppedNoBuffer}
 * because the receiver had no posted buffer, and {@code delivered} into a posted buffer.
 */
public record EmulatedUdStats(long copies, long lost, long duplicated, long reordered, long droppedNoBuffer,
                              long delivered) {
}
