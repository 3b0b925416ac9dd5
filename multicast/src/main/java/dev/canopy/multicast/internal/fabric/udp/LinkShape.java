package dev.canopy.multicast.internal.fabric.udp;

import java.util.List;

/**
 * How an emulated host's link behaves, like a port of a store-and-forward switch: a token bucket ({@code tc tbf})
 * holds the port to {@code rateMbit}, and the packets waiting for it sit in a drop-tail FIFO of
 * {@code queuePackets} packets ({@code pfifo}); when more arrive they are dropped, which is how many senders to one
 * receiver make TCP time out (incast). Both kernel queueing disciplines are standard ({@code sch_tbf},
 * {@code sch_fifo}); no {@code netem} is needed.
 *
 * @param rateMbit     the link rate in Mbit/s, 1 to 100000
 * @param queuePackets the switch port's buffer in packets, 1 to 100000
 */
public record LinkShape(int rateMbit, int queuePackets) {

    /** A host's own transmit queue: Linux's default {@code txqueuelen}; the switch port's is {@code queuePackets}. */
    static final int HOST_QUEUE_PACKETS = 1000;
    /** The token bucket's depth in time at the link rate; small, so the port never sends a burst above its rate. */
    private static final double BURST_SECONDS = 100e-6;
    private static final int MIN_BURST_BYTES = 2 * 1514;

    public LinkShape {
        if (rateMbit < 1 || rateMbit > 100_000) {
            throw new IllegalArgumentException("link rate " + rateMbit + " Mbit/s must be 1 to 100000");
        }
        if (queuePackets < 1 || queuePackets > 100_000) {
            throw new IllegalArgumentException("queue of " + queuePackets + " packets must be 1 to 100000");
        }
    }

    /** The token bucket's depth in bytes. */
    int burstBytes() {
        return (int) Math.max(MIN_BURST_BYTES, rateMbit * 1e6 / 8 * BURST_SECONDS);
    }

    /**
     * The {@code tc} arguments (after {@code tc -n NAMESPACE}) that shape {@code device}'s egress with a FIFO of
     * {@code packets}: the token bucket at the root, the FIFO as its only class's queue.
     */
    List<List<String>> tcCommands(String device, int packets) {
        return List.of(
                List.of("qdisc", "add", "dev", device, "root", "handle", "1:", "tbf", "rate", rateMbit + "mbit",
                        "burst", Integer.toString(burstBytes()), "limit", Integer.toString(packets * 1514)),
                List.of("qdisc", "add", "dev", device, "parent", "1:1", "handle", "10:", "pfifo", "limit",
                        Integer.toString(packets)));
    }
}
