package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.util.PriorityQueue;

/** A candidate edge of the greedy builders (ECEF, bounded fan-out) and when its send would complete. */
record CandidateSend(int sender, int target, double completesMs) {

    /** Queues {@code sender}'s send to its fastest uninformed target, if it has one. */
    static void offer(PriorityQueue<CandidateSend> sends, NearestUninformed nearest, LatencyMatrix latencies,
            int sender, double startedMs) {
        int target = nearest.of(sender);
        if (target >= 0) {
            sends.add(new CandidateSend(sender, target, startedMs + latencies.latency(sender, target)));
        }
    }
}
