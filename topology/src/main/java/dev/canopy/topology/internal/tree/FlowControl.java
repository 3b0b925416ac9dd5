package dev.canopy.topology.internal.tree;

/**
 * The runtime's flow control between two processes, as the cost model replays it (the runtime's
 * {@code MessageLimits}, {@code FlowProtocol} and the collectives' chunking supply the values):
 *
 * <ul>
 *   <li>a message whose payload is at most {@code eagerLimitBytes} goes at once ("eager") while the
 *       sender's credit towards the receiver allows: at most {@code windowBytes} of eager payload
 *       (each message costing {@code messageCostBytes} more) are unacknowledged, and a message's
 *       credit comes back one latency after it arrived (the receiver consumes it on arrival and grants
 *       it back);</li>
 *   <li>any other message is announced (one latency) and its body is asked for (one latency back) and
 *       sent: at once when the receiver has room to fetch it ahead ({@code fetchAheadBytes} of bodies in
 *       flight per sender), else, for a body larger than that, only once the receiver has received the
 *       message before it (its receive is posted then);</li>
 *   <li>a message above {@code chunkBytes} travels as several messages of at most that size, one after
 *       the other.</li>
 * </ul>
 *
 * So one stream carries at most about {@code windowBytes + fetchAheadBytes} per round trip: over a WAN link a
 * large message is bound by the window, not by the bandwidth.
 *
 * @param windowBytes eager payload a sender may have unacknowledged at one receiver (its credit window
 *     less the reserve kept for announcements)
 * @param fetchAheadBytes bodies a receiver fetches ahead of their receives from one sender
 * @param eagerLimitBytes the largest payload sent eagerly
 * @param chunkBytes the largest payload of one message; larger ones are cut
 * @param messageCostBytes what a message costs beyond its bytes: the frame header counted in the payload and the
 *     receiver's per-message charge against the credit
 */
public record FlowControl(long windowBytes, long fetchAheadBytes, int eagerLimitBytes, int chunkBytes,
        int messageCostBytes) {

    /** No flow control: every message goes at once, in one piece. */
    public static final FlowControl UNLIMITED =
            new FlowControl(Long.MAX_VALUE / 4, Long.MAX_VALUE / 4, Integer.MAX_VALUE, Integer.MAX_VALUE, 0);

    public FlowControl {
        if (windowBytes < 1 || fetchAheadBytes < 0 || eagerLimitBytes < 0 || chunkBytes < 1 || messageCostBytes < 0) {
            throw new IllegalArgumentException("flow control needs a window >= 1 B, a fetch-ahead budget >= 0 B, an"
                    + " eager limit >= 0 B, chunks >= 1 B and a message cost >= 0 B; got " + windowBytes + ", "
                    + fetchAheadBytes + ", " + eagerLimitBytes + ", " + chunkBytes + ", " + messageCostBytes);
        }
    }

    /**
     * Whether a stream of {@code messages} messages of at most {@code largestBytes} each, {@code totalBytes} in
     * all, never meets this flow control: every one eager, in one piece, within the window.
     */
    boolean neverLimits(long totalBytes, long largestBytes, long messages) {
        return largestBytes <= chunkBytes && largestBytes + messageCostBytes <= eagerLimitBytes
                && totalBytes + messages * messageCostBytes <= windowBytes;
    }
}
