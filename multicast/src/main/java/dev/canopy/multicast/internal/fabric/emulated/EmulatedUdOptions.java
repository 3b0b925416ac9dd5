package dev.canopy.multicast.internal.fabric.emulated;

/**
 * The emulated InfiniBand UD multicast fabric: its wire MTU and header overhead, and the faults it
 * injects, all seeded. Defaults follow the design note: a 2048-byte MTU of which 1836 bytes were usable
 * payload after the headers, so {@link #mtu()} is 1836.
 *
 * @param wireMtu        bytes of one packet on the wire, headers included (IB: 256 to 4096; 2048 typical)
 * @param headerOverhead bytes of each packet taken by the fabric's own headers
 * @param loss           probability that a datagram is lost on its way to one receiver
 * @param duplication    probability that a receiver gets a datagram twice
 * @param reorder        probability that a datagram is held back by up to {@code reorderNanos}, so
 *                       later ones overtake it
 * @param flightNanos    time from send to arrival at a receiver's posted buffer
 * @param reorderNanos   the longest extra hold of a reordered (or duplicated) datagram
 * @param seed           the seed of every fault decision
 */
public record EmulatedUdOptions(int wireMtu, int headerOverhead, double loss, double duplication, double reorder,
                                long flightNanos, long reorderNanos, long seed) {

    public static final int DEFAULT_WIRE_MTU = 2048;
    public static final int DEFAULT_HEADER_OVERHEAD = 212;

    public EmulatedUdOptions {
        if (wireMtu < 256 || wireMtu > 65_536) {
            throw new IllegalArgumentException("emulated-ud wireMtu " + wireMtu + " must be 256 to 65536 bytes");
        }
        if (headerOverhead < 0 || headerOverhead > wireMtu - 128) {
            throw new IllegalArgumentException("emulated-ud headerOverhead " + headerOverhead
                    + " must leave at least 128 bytes of the " + wireMtu + "-byte MTU");
        }
        requireProbability("loss", loss);
        requireProbability("duplication", duplication);
        requireProbability("reorder", reorder);
        if (flightNanos < 0 || reorderNanos < 0) {
            throw new IllegalArgumentException("emulated-ud flightNanos " + flightNanos + " and reorderNanos "
                    + reorderNanos + " must be 0 or more");
        }
    }

    /** No faults, no flight time: datagrams arrive at once and in order. */
    public static EmulatedUdOptions perfect() {
        return new EmulatedUdOptions(DEFAULT_WIRE_MTU, DEFAULT_HEADER_OVERHEAD, 0, 0, 0, 0, 0, 0);
    }

    /** Loss, duplication and reordering all with probability {@code p}, seeded. */
    public static EmulatedUdOptions faulty(double p, long flightNanos, long reorderNanos, long seed) {
        return new EmulatedUdOptions(DEFAULT_WIRE_MTU, DEFAULT_HEADER_OVERHEAD, p, p, p, flightNanos, reorderNanos,
                seed);
    }

    /** The largest datagram a sender may hand to the fabric. */
    public int mtu() {
        return wireMtu - headerOverhead;
    }

    private static void requireProbability(String name, double value) {
        if (!(value >= 0 && value < 1)) {
            throw new IllegalArgumentException("emulated-ud " + name + " " + value + " must be in [0, 1)");
        }
    }
}
