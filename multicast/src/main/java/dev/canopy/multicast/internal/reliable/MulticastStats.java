package dev.canopy.multicast.internal.reliable;

/**
 * A member's counters, for tests and benchmarks.
 *
 * @param packetsMulticast     packets this member multicast as root
 * @param packetsFromFabric    DATA packets received from the multicast fabric, alone or in a BATCH (duplicates included)
 * @param forwards             packets sent reliably to co-roots (binomial tree of sub-group heads)
 * @param retransmissions      packets sent again over the reliable link to a leaf whose ACK was missing
 * @param forcedRetransmissions of those, sent early because a co-root's window ran out of buffers
 * @param feedbackSent         ACK/credit messages sent to a parent
 * @param feedbackReceived     ACK/credit messages received from leaves and co-roots
 * @param duplicatesDropped    packets received again (fabric duplicates, multicast and reliable copies)
 * @param malformedDropped     packets that failed validation
 * @param creditStalls         times this root had packets ready but no credits
 */
public record MulticastStats(long packetsMulticast, long packetsFromFabric, long forwards, long retransmissions,
                             long forcedRetransmissions,
                             long feedbackSent, long feedbackReceived, long duplicatesDropped, long malformedDropped,
                             long creditStalls) {

    public MulticastStats plus(MulticastStats other) {
        return new MulticastStats(packetsMulticast + other.packetsMulticast,
                packetsFromFabric + other.packetsFromFabric,
                forwards + other.forwards,
                retransmissions + other.retransmissions, forcedRetransmissions + other.forcedRetransmissions,
                feedbackSent + other.feedbackSent, feedbackReceived + other.feedbackReceived,
                duplicatesDropped + other.duplicatesDropped, malformedDropped + other.malformedDropped,
                creditStalls + other.creditStalls);
    }

    static final class Counters {
        long packetsMulticast;
        long packetsFromFabric;
        long forwards;
        long retransmissions;
        long forcedRetransmissions;
        long feedbackSent;
        long feedbackReceived;
        long duplicatesDropped;
        long malformedDropped;
        long creditStalls;

        MulticastStats snapshot() {
            return new MulticastStats(packetsMulticast, packetsFromFabric, forwards, retransmissions,
                    forcedRetransmissions, feedbackSent,
                    feedbackReceived, duplicatesDropped, malformedDropped, creditStalls);
        }
    }
}
