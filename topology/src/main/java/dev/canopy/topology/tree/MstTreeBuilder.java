package dev.canopy.topology.tree;

import dev.canopy.topology.graph.LatencyMatrix;
import java.util.Arrays;

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
        int n = latencies.size();
        double[] key = new double[n];
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
                    if (link < key[v]) {
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
            added = next;
        }
        return PlanningResult.planned(SendOrder.longestSubtreeFirst(name(), latencies, root, parent, cost));
    }
}
