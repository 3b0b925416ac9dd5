package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;

/**
 * Flat tree: the root sends to every node directly (MPICH-G2 and MagPIe at the WAN level), the
 * farthest first. Needs a measured link from the root to every node.
 */
public final class FlatTreeBuilder implements TreeBuilder {

    @Override
    public String name() {
        return "flat";
    }

    @Override
    public PlanningResult<Tree> build(LatencyMatrix latencies, int root, CostModel cost) {
        int[] parent = new int[latencies.size()];
        for (int v = 0; v < parent.length; v++) {
            if (v != root && !latencies.linked(root, v)) {
                return PlanningResult.unreachable(latencies.name(v), "a flat tree needs the link '"
                        + latencies.name(root) + "' -> '" + latencies.name(v) + "', which was not measured");
            }
            parent[v] = v == root ? -1 : root;
        }
        return PlanningResult.planned(SendOrder.longestSubtreeFirst(name(), latencies, root, parent, cost));
    }
}
