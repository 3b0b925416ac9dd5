package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.util.Arrays;

/**
 * Grows a tree from the root by Prim's rule, the fastest acceptable link {@code c -> n} from the tree
 * to a node outside it first, in O(n^2) on the dense matrix. Shared by the MST and HLOT builders,
 * which differ only in which links they accept. Ties go to the smaller node index, then to the
 * parent that joined the tree first.
 */
final class PrimGrowth {

    /** Which links out of the tree may be taken. */
    enum RelayRule {
        /** Every measured link: Prim's minimum spanning tree. */
        ANY_LINK,
        /** Only links whose relay path {@code D[c] + W[c][n]} is no slower than the direct {@code W[r][n]}: HLOT. */
        NO_SLOWER_THAN_DIRECT
    }

    private PrimGrowth() {
    }

    /** The parent of every node, or the first node no acceptable link reaches. */
    static PlanningResult<int[]> parents(LatencyMatrix latencies, int root, RelayRule rule) {
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
                    if (link < key[v] && accepts(rule, pathMs[added] + link, latencies.latency(root, v))) {
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
        return PlanningResult.planned(parent);
    }

    private static boolean accepts(RelayRule rule, double relayPathMs, double directMs) {
        return rule == RelayRule.ANY_LINK || relayPathMs <= directMs;
    }
}
