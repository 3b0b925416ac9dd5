package dev.canopy.probes.internal.measure;

import java.util.EnumMap;
import java.util.Map;

/** What one node's probing has sent, received, answered, lost and dropped. Owned by the probe service's context. */
final class ProbeCounters {

    private final long startNanos;
    private long sent;
    private long received;
    private long answered;
    private long measured;
    private long lost;
    private final Map<DropReason, Long> dropped = new EnumMap<>(DropReason.class);

    ProbeCounters(long startNanos) {
        this.startNanos = startNanos;
    }

    /** A probe message (request, transfer, reply or receipt) left this node. */
    void sent() {
        sent++;
    }

    /** A probe message reached this node, whatever became of it. */
    void received() {
        received++;
    }

    /** This node answered a member's request or transfer (the answer counts as sent too). */
    void answered() {
        answered++;
        sent++;
    }

    void measured() {
        measured++;
    }

    void lost() {
        lost++;
    }

    void dropped(DropReason reason) {
        dropped.merge(reason, 1L, Long::sum);
    }

    ProbeStatistics snapshot(long nowNanos) {
        return new ProbeStatistics(sent, received, answered, measured, lost, Map.copyOf(dropped),
                Math.max(0, nowNanos - startNanos) / 1e9);
    }
}
