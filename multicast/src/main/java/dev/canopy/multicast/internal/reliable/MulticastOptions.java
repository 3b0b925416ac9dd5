package dev.canopy.multicast.internal.reliable;

import dev.canopy.multicast.internal.model.LatencyModel;
import java.time.Duration;
import java.util.Objects;

/**
 * The substrate's parameters, checked once here.
 *
 * @param window            pre-allocated MTU buffers of a root's sliding window (and of each co-root's), used as
 *                          one ring of bytes;
 *                          below {@code creditsPerRoot + ackEvery} a co-root often runs out and retransmits early
 * @param creditsPerRoot    receive buffers each member keeps posted per root that may send to it: the
 *                          datagrams (a DATA or a whole BATCH each) a root may have in flight beyond what a
 *                          receiver has seen; the same on every member
 * @param ackEvery          M: a receiver acknowledges message B of a root's stream when B mod M == its rank mod M
 *                          (skewed ACK), and reports credits after half of its buffers
 * @param ackDelay          an explicit ACK (with credits) follows once a stream with unreported progress has been
 *                          quiet this long
 * @param retransmitTimeout after this long without an ACK, a root or co-root sends the packet again over
 *                          the reliable link, to exactly the leaves whose ACK is missing
 * @param subGroupSize      root or co-root plus its leaves; 0 picks it from {@link #latencyModel}
 * @param latencyModel      the model behind the default sub-group size
 * @param maxMessageBytes   the largest message accepted from a root (checked before allocating)
 */
public record MulticastOptions(int window, int creditsPerRoot, int ackEvery, Duration ackDelay,
                               Duration retransmitTimeout, int subGroupSize, LatencyModel latencyModel,
                               int maxMessageBytes) {

    /** For Vert.x loops, whose timers have millisecond resolution. */
    public static final MulticastOptions DEFAULTS = new MulticastOptions(64, 32, 8, Duration.ofMillis(1),
            Duration.ofMillis(20), 0, LatencyModel.PUBLISHED_INFINIBAND, 256 << 20);

    public MulticastOptions {
        Objects.requireNonNull(ackDelay, "ackDelay");
        Objects.requireNonNull(retransmitTimeout, "retransmitTimeout");
        Objects.requireNonNull(latencyModel, "latencyModel");
        require(window >= 1 && window <= 1 << 16, "window " + window + " must be 1 to 65536 packets");
        require(creditsPerRoot >= 1 && creditsPerRoot <= 1 << 16,
                "creditsPerRoot " + creditsPerRoot + " must be 1 to 65536");
        require(ackEvery >= 1 && ackEvery <= creditsPerRoot, "ackEvery " + ackEvery
                + " must be 1 to creditsPerRoot (" + creditsPerRoot + "), or roots stall waiting for credits");
        require(!ackDelay.isNegative() && !ackDelay.isZero(), "ackDelay " + ackDelay + " must be positive");
        require(retransmitTimeout.compareTo(ackDelay) > 0, "retransmitTimeout " + retransmitTimeout
                + " must exceed ackDelay " + ackDelay + ", or every packet is retransmitted");
        require(subGroupSize >= 0, "subGroupSize " + subGroupSize + " must be 0 (from the model) or more");
        require(maxMessageBytes >= 0, "maxMessageBytes " + maxMessageBytes + " must be 0 or more");
    }

    public MulticastOptions withTimeouts(Duration newAckDelay, Duration newRetransmitTimeout) {
        return new MulticastOptions(window, creditsPerRoot, ackEvery, newAckDelay, newRetransmitTimeout, subGroupSize,
                latencyModel, maxMessageBytes);
    }

    /** A root's (and each co-root's) window of {@code newWindow} packets, {@code newCredits} receive buffers per root. */
    public MulticastOptions withWindow(int newWindow, int newCredits) {
        return new MulticastOptions(newWindow, newCredits, ackEvery, ackDelay, retransmitTimeout, subGroupSize,
                latencyModel, maxMessageBytes);
    }

    public MulticastOptions withSubGroupSize(int newSubGroupSize) {
        return new MulticastOptions(window, creditsPerRoot, ackEvery, ackDelay, retransmitTimeout, newSubGroupSize,
                latencyModel, maxMessageBytes);
    }

    /** The sub-group size for a communicator of {@code size} ranks. */
    public int subGroupSizeFor(int size) {
        return Math.min(size, subGroupSize > 0 ? subGroupSize : latencyModel.bestSubGroupSize(size));
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException("multicast option " + message);
        }
    }
}
