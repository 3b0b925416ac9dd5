package dev.canopy.core.comm;

/**
 * How much memory a node lets other nodes fill with messages it has not received yet (its unexpected
 * queues and the frames parked for communicators it has not created yet), and where messages switch
 * from eager to rendezvous. See {@link FlowProtocol} for how senders are held to these bounds.
 *
 * @param bytesPerPeer the most one peer may have queued at this node (payload bytes plus
 *                     {@value FlowProtocol#ENVELOPE_COST} per message or announcement); at least
 *                     {@value FlowProtocol#INITIAL_CREDIT}
 * @param bytesTotal   the most all peers together may have queued at this node; each peer gets
 *                     {@code min(bytesPerPeer, bytesTotal / peers)}, but never less than
 *                     {@value FlowProtocol#INITIAL_CREDIT} (so in jobs of more than
 *                     {@code bytesTotal / 256 KiB} nodes the total can reach {@code peers * 256 KiB})
 * @param eagerLimit   payloads up to this many bytes go at once while the receiver's credit allows;
 *                     larger ones are announced and sent when the receiver has matched a receive (or
 *                     has room to fetch them ahead). The default, 1 MiB, is high for a LAN MPI (64 KiB
 *                     is usual there) because a rendezvous costs a round trip, which on a WAN link
 *                     outweighs copying a segment of a pipelined collective: with 64 KiB, a 1 MiB
 *                     broadcast over the emulated 20 ms two-site grid took about 2.5 times as long
 */
public record MessageLimits(long bytesPerPeer, long bytesTotal, int eagerLimit) {

    public static final long DEFAULT_BYTES_PER_PEER = 8L << 20;
    public static final long DEFAULT_BYTES_TOTAL = 64L << 20;
    public static final int DEFAULT_EAGER_LIMIT = 1 << 20;

    public MessageLimits {
        if (bytesPerPeer < FlowProtocol.INITIAL_CREDIT) {
            throw new IllegalArgumentException("message limit per peer " + bytesPerPeer + " bytes is below the "
                    + FlowProtocol.INITIAL_CREDIT + " bytes every sender may send before the receiver's first grant");
        }
        if (bytesTotal < bytesPerPeer) {
            throw new IllegalArgumentException("total message limit " + bytesTotal
                    + " bytes is below the limit per peer (" + bytesPerPeer + " bytes)");
        }
        if (eagerLimit < 0 || eagerLimit > bytesPerPeer / 4) {
            throw new IllegalArgumentException("eager limit " + eagerLimit + " bytes must be between 0 and a quarter"
                    + " of the limit per peer (" + bytesPerPeer / 4 + " bytes)");
        }
    }

    /** 8 MiB per peer, 64 MiB in total, eager up to 1 MiB. */
    public static MessageLimits defaults() {
        return new MessageLimits(DEFAULT_BYTES_PER_PEER, DEFAULT_BYTES_TOTAL, DEFAULT_EAGER_LIMIT);
    }

    /** The credit window each of {@code peers} other nodes gets at this node. */
    public long windowPerPeer(int peers) {
        long share = bytesTotal / Math.max(1, peers);
        return Math.max(FlowProtocol.INITIAL_CREDIT, Math.min(bytesPerPeer, share));
    }

    /** The eager bytes one of {@code peers} other nodes may have unacknowledged here: its window less the reserve kept for announcements. */
    public long eagerWindowPerPeer(int peers) {
        return windowPerPeer(peers) - FlowProtocol.RENDEZVOUS_RESERVE;
    }

    /** The rendezvous bodies this node fetches ahead of their receives from one of {@code peers} other nodes: half its window. */
    public long fetchAheadPerPeer(int peers) {
        return windowPerPeer(peers) / 2;
    }

    /** What a queued message costs against the credit beyond its payload. */
    public static int messageCostBytes() {
        return FlowProtocol.ENVELOPE_COST;
    }
}
