package dev.canopy.topology.tree;

import dev.canopy.topology.graph.LatencyMatrix;
import java.util.Arrays;

/**
 * HLOT, exactly as in {@code shared/design/hlot.md}: grow the tree from the root by Prim's rule (the
 * fastest link {@code c -> n} out of the tree), but reject a link whose relay path would be slower
 * than the direct link, {@code D[c] + W[c][n] > W[r][n]}; the direct link is always acceptable, and
 * an unmeasured direct link counts as infinitely slow. Hence {@code D[n] <= W[r][n]} for every node,
 * and HLOT's completion never exceeds the flat tree's.
 *
 * <p>Because {@code D[c]} is fixed once c joins, a rejected link stays rejected, so "take the next
 * candidate" equals keeping, per outside node, its fastest acceptable link: O(n^2) on the dense
 * matrix. Ties go to the smaller node index, then to the parent that joined first.
 */
public final class HlotTreeBuilder implements TreeBuilder {

    @Override
    public String name() {
        return "hlot";
    }

    @Override
    public PlanningResult<Tree> build(LatencyMatrix latencies, int root, CostModel cost) {
        int n = latencies.size();
        double[] key = new double[n];
        double[] pathMs = new double[n];
        int[] parent = new int[n];
        boolean[] inTree = new boolean[n];
        Arrays.fill(key, Double.POSITIVE_INFINITY);
        Arrays.fill(parent, -1);
        int added = root;
        inTree[root] = true;
        for (int step = 1; step < n; step++) {
            int next = -1;
            for (int v = 0; v < n; v++) {
                if (!inTree[v]) {
                    double link = latencies.latency(added, v);
                    boolean noSlowerThanDirect = pathMs[added] + link <= latencies.latency(root, v);
                    if (link < key[v] && noSlowerThanDirect) {
                        key[v] = link;
                        parent[v] = added;
                    }
                    if (next < 0 || key[v] < key[next]) {
                        next = v;
                    }
                }
            }
            if (key[next] == Double.POSITIVE_INFINITY) {
                return Reachability.noPath(latencies, root, next);
            }
            inTree[next] = true;
            pathMs[next] = pathMs[parent[next]] + key[next];
            added = next;
        }
        return PlanningResult.planned(SendOrder.longestSubtreeFirst(name(), latencies, root, parent, cost));
    }
}
