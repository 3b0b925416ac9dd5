package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;

/**
 * Minimum spanning tree by Prim's rule grown from the root: repeatedly add the fastest measured link
 * {@code c -> n} from the tree to a node outside it, using the latency in the direction the message
 * travels. On symmetric latencies this is the MST; O(n^2) on the dense matrix.
 */
public final class MstTreeBuilder implements TreeBuilder {

    @Override
    public String name() {
        return "mst";
    }

    @Override
    public PlanningResult<Tree> build(LatencyMatrix latencies, int root, CostModel cost) {
        PlanningResult<int[]> parents = PrimGrowth.parents(latencies, root, PrimGrowth.RelayRule.ANY_LINK);
        if (parents instanceof PlanningResult.Unreachable<int[]> unreachable) {
            return unreachable.retype();
        }
        return PlanningResult.planned(SendOrder.longestSubtreeFirst(name(), latencies, root, parents.orElseThrow(), cost));
    }
}
