package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;

/**
 * HLOT, exactly as in {@code shared/design/hlot.md}: grow the tree from the root by Prim's rule (the
 * fastest link {@code c -> n} out of the tree), but reject a link whose relay path would be slower
 * than the direct link, {@code D[c] + W[c][n] > W[r][n]}; the direct link is always acceptable, and
 * an unmeasured direct link counts as infinitely slow. Hence {@code D[n] <= W[r][n]} for every node,
 * and HLOT's completion never exceeds the flat tree's.
 *
 * <p>Because {@code D[c]} is fixed once c joins, a rejected link stays rejected, so "take the next
 * candidate" equals keeping, per outside node, its fastest acceptable link: O(n^2) on the dense
 * matrix ({@link PrimGrowth}). Ties go to the smaller node index, then to the parent that joined first.
 */
public final class HlotTreeBuilder implements TreeBuilder {

    @Override
    public String name() {
        return "hlot";
    }

    @Override
    public PlanningResult<Tree> build(LatencyMatrix latencies, int root, CostModel cost) {
        PlanningResult<int[]> parents = PrimGrowth.parents(latencies, root, PrimGrowth.RelayRule.NO_SLOWER_THAN_DIRECT);
        if (parents instanceof PlanningResult.Unreachable<int[]> unreachable) {
            return unreachable.retype();
        }
        return PlanningResult.planned(SendOrder.longestSubtreeFirst(name(), latencies, root, parents.orElseThrow(), cost));
    }
}
