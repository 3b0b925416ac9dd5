package dev.canopy.core.comm;

/**
 * The receiving side of {@link FlowProtocol}: how many bytes each peer (by WORLD rank) has queued or
 * parked at this node, and the credit given back to it. A peer may hold at most its window: the
 * {@value FlowProtocol#INITIAL_CREDIT} bytes every sender starts with until its first frame, then
 * {@link MessageLimits#windowPerPeer}; consumed bytes go back to it in grants of at least an eighth
 * of the window, so a stalled sender always has a grant on its way once its receiver has received.
 *
 * <p>Bodies of rendezvous messages this node fetches before a receive takes their announcement (so a
 * receive posted later finds them here, as if they had been eager) have a budget of their own: half
 * the window per peer and half of {@link MessageLimits#bytesTotal} in all. A peer can thus leave at
 * most one and a half windows of data here.
 *
 * <p>Confined to the runtime's context.
 */
final class InboundBudget {

    /** Sends a grant of {@code bytes} to the peer with WORLD rank {@code peer}. */
    @FunctionalInterface
    interface Grants {
        void grant(int peer, long bytes);
    }

    private final long window;
    private final long fetchLimitPerPeer;
    private final long fetchLimitTotal;
    private final long grantThreshold;
    private final Grants grants;
    private final long[] held;
    private final long[] consumed;
    private final boolean[] toppedUp;
    private final long[] fetched;
    private long fetchedTotal;
    private long heldTotal;
    private long highWaterPerPeer;

    InboundBudget(int worldSize, MessageLimits limits, Grants grants) {
        this.window = limits.windowPerPeer(worldSize - 1);
        this.fetchLimitPerPeer = limits.fetchAheadPerPeer(worldSize - 1);
        this.fetchLimitTotal = limits.bytesTotal() / 2;
        this.fetched = new long[worldSize];
        this.grantThreshold = window / 8;
        this.grants = grants;
        this.held = new long[worldSize];
        this.consumed = new long[worldSize];
        this.toppedUp = new boolean[worldSize];
    }

    /**
     * A frame costing {@code cost} arrived from {@code peer}: true when it fits the peer's credit (it
     * is now held), false when the peer sent beyond the credit it was given.
     */
    boolean admit(int peer, int cost) {
        if (cost == 0) {
            return true;
        }
        long limit = toppedUp[peer] ? window : FlowProtocol.INITIAL_CREDIT;
        if (held[peer] + consumed[peer] + cost > limit) {
            return false;
        }
        held[peer] += cost;
        heldTotal += cost;
        highWaterPerPeer = Math.max(highWaterPerPeer, held[peer] + fetched[peer]);
        if (!toppedUp[peer]) {
            toppedUp[peer] = true;
            grants.grant(peer, window - FlowProtocol.INITIAL_CREDIT);
        }
        return true;
    }

    /** A receive took (or a free discarded) what {@code peer} sent at {@code cost}: its credit goes back. */
    void release(int peer, int cost) {
        if (cost == 0) {
            return;
        }
        held[peer] -= cost;
        heldTotal -= cost;
        consumed[peer] += cost;
        if (consumed[peer] >= grantThreshold) {
            long bytes = consumed[peer];
            consumed[peer] = 0;
            grants.grant(peer, bytes);
        }
    }

    /** Reserves room for a body of {@code size} bytes from {@code peer} fetched ahead of its receive; false when there is none. */
    boolean reserveFetch(int peer, int size) {
        if (fetched[peer] + size > fetchLimitPerPeer || fetchedTotal + size > fetchLimitTotal) {
            return false;
        }
        fetched[peer] += size;
        fetchedTotal += size;
        highWaterPerPeer = Math.max(highWaterPerPeer, held[peer] + fetched[peer]);
        return true;
    }

    /** A fetched body was received or discarded. */
    void releaseFetch(int peer, int size) {
        fetched[peer] -= size;
        fetchedTotal -= size;
    }

    long fetched(int peer) {
        return fetched[peer];
    }

    long window() {
        return window;
    }

    long held(int peer) {
        return held[peer];
    }

    long heldTotal() {
        return heldTotal;
    }

    /** The most bytes any one peer has had held here at once, fetched bodies included. */
    long highWaterPerPeer() {
        return highWaterPerPeer;
    }
}
