package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;

/**
 * Shortest-path tree (Dijkstra on one-way latencies): every node is reached at its shortest-path
 * latency. With zero per-send cost its completion is the lower bound for every tree.
 */
public final class ShortestPathTreeBuilder implements TreeBuilder {

    @Override
    public String name() {
        return "spt";
    }

    @Override
    public PlanningResult<Tree> build(LatencyMatrix latencies, int root, CostModel cost) {
        ShortestPaths paths = ShortestPaths.from(latencies, root);
        int unreachable = paths.firstUnreachable();
        if (unreachable >= 0) {
            return Reachability.noPath(latencies, root, unreachable);
        }
        return PlanningResult.planned(SendOrder.longestSubtreeFirst(name(), latencies, root, paths.parent(), cost));
    }
}
