package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;

/** The unreachable outcome shared by builders that may use any measured link. */
final class Reachability {

    private Reachability() {
    }

    static <T> PlanningResult<T> noPath(LatencyMatrix latencies, int root, int node) {
        return PlanningResult.unreachable(latencies.name(node),
                "no path of measured links leads to it from root '" + latencies.name(root) + "'");
    }

    /** The unreachable outcome naming the first node a greedy builder could not inform. */
    static <T> PlanningResult<T> noPath(LatencyMatrix latencies, int root, boolean[] informed) {
        for (int v = 0; v < informed.length; v++) {
            if (!informed[v]) {
                return noPath(latencies, root, v);
            }
        }
        throw new IllegalStateException("every node is informed");
    }
}
