package dev.canopy.multicast.internal.fabric;

import java.nio.ByteBuffer;

/**
 * One member's endpoint on an unreliable multicast fabric (an InfiniBand UD queue pair, an IP
 * multicast socket, or the in-process {@code EmulatedUdFabric}). The reliability substrate needs
 * nothing else from a fabric, so a verbs fabric can implement this when the hardware exists.
 *
 * <p>The contract is the UD service's: a datagram of at most {@link #mtu()} bytes sent to a group
 * may reach each other member joined to that group once, not at all, or more than once, in any order; it
 * is never delivered back to its sender. A datagram that reaches a member with no
 * posted receive buffer is dropped. Each posted buffer receives one datagram; the fabric hands it
 * back through the {@link ReceiveHandler}, and the owner posts it again when it has read it.
 *
 * <p>Threading: {@link #send} and {@link #postReceive} are called on the endpoint's owner loop; the
 * receive handler runs on that loop.
 */
public interface Fabric extends AutoCloseable {

    /** The fabric's name in logs and options: {@code emulated-ud}, {@code udp}, ... */
    String kind();

    /** The largest datagram {@link #send} accepts, in bytes (the wire MTU less the fabric's own headers). */
    int mtu();

    /** Starts receiving the datagrams sent to {@code group}. Joining twice has no further effect. */
    void join(MulticastGroup group);

    /** Stops receiving {@code group}'s datagrams. */
    void leave(MulticastGroup group);

    /**
     * Sends the remaining bytes of {@code datagram} to every other member joined to {@code group}.
     * The fabric has read the bytes when this returns, so the caller may reuse the buffer. Delivery is
     * not guaranteed; the outcome only says whether the fabric took the datagram.
     */
    SendOutcome send(MulticastGroup group, ByteBuffer datagram);

    /**
     * Posts a receive buffer (capacity at least {@link #mtu()}): the next datagram for this endpoint is
     * written into it and the buffer is handed to the receive handler, flipped for reading.
     */
    void postReceive(ByteBuffer buffer);

    /** Receive buffers posted and not yet filled. */
    int postedReceives();

    /** Where received datagrams go; set before the first {@link #postReceive}. */
    void receiveHandler(ReceiveHandler handler);

    /** Leaves every group and drops the posted buffers. */
    @Override
    void close();
}
