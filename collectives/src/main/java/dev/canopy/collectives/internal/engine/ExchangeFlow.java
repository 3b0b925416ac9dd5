package dev.canopy.collectives.internal.engine;

import dev.canopy.core.comm.MessageLimits;
import dev.canopy.topology.internal.tree.FlowControl;

/**
 * The flow control a collective's messages meet between two members, for the cost model: the credit window,
 * fetch-ahead budget and eager limit every member's runtime gives each of the others ({@link MessageLimits}), and
 * the {@link Exchange}'s chunks and frame header.
 */
public final class ExchangeFlow {

    private ExchangeFlow() {
    }

    /** The flow control between two of {@code processes} members whose runtimes use {@code limits}. */
    public static FlowControl of(MessageLimits limits, int processes) {
        int peers = Math.max(1, processes - 1);
        return new FlowControl(limits.eagerWindowPerPeer(peers), limits.fetchAheadPerPeer(peers), limits.eagerLimit(),
                Exchange.CHUNK_BYTES, CollectiveFrame.HEADER_LENGTH + MessageLimits.messageCostBytes());
    }
}
