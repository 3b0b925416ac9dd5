package dev.canopy.topology.tree;

import dev.canopy.topology.graph.LatencyMatrix;

/**
 * Earliest-completing-edge-first (ECEF, Bhat, Raghavendra and Prasanna 1999), the model-driven tree:
 * among all links {@code c -> n} from a node that has the message to one that has not, take the one
 * whose send would complete first under the {@link CostModel}, {@code ready[c] + s + L(c, n)}; then
 * c is busy for one more send {@code s} and n is ready at its arrival. The chosen edges are then sent
 * longest subtree first ({@link SendOrder}), which is optimal for those edges and so never later than
 * the order of selection.
 *
 * <p>Per-send overhead and message size make fan-out expensive: with {@code s = 0} ECEF is Dijkstra
 * (the shortest-path tree); as {@code s} grows it spreads the sending over more relays. Each sender's
 * fastest link to a node without the message comes from {@link NearestUninformed}: O(n^2 log n).
 */
public final class EarliestCompletingEdgeFirstTreeBuilder implements TreeBuilder {

    @Override
    public String name() {
        return "ecef";
    }

    @Override
    public PlanningResult<Tree> build(LatencyMatrix latencies, int root, CostModel cost) {
        int n = latencies.size();
        double send = cost.sendCostMs();
        double[] ready = new double[n];
        boolean[] informed = new boolean[n];
        int[] informedOrder = new int[n];
        int[] parent = new int[n];
        parent[root] = -1;
        NearestUninformed nearest = new NearestUninformed(latencies, informed);
        informed[root] = true;
        informedOrder[0] = root;
        for (int count = 1; count < n; count++) {
            int sender = -1;
            int target = -1;
            double earliest = Double.POSITIVE_INFINITY;
            for (int i = 0; i < count; i++) {
                int c = informedOrder[i];
                int t = nearest.of(c);
                if (t >= 0 && ready[c] + send + latencies.latency(c, t) < earliest) {
                    earliest = ready[c] + send + latencies.latency(c, t);
                    sender = c;
                    target = t;
                }
            }
            if (sender < 0) {
                return Reachability.noPath(latencies, root, firstUninformed(informed));
            }
            informed[target] = true;
            informedOrder[count] = target;
            parent[target] = sender;
            ready[sender] += send;
            ready[target] = earliest;
        }
        return PlanningResult.planned(SendOrder.longestSubtreeFirst(name(), latencies, root, parent, cost));
    }

    private static int firstUninformed(boolean[] informed) {
        for (int v = 0; v < informed.length; v++) {
            if (!informed[v]) {
                return v;
            }
        }
        throw new IllegalStateException("every node is informed");
    }
}
