package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;

/**
 * Shortest-path tree on message times: Dijkstra where a hop costs its one-way latency plus the time the cost model
 * charges for moving the message over it ({@link CostModel#transferMs}). For a large message a relay over two fast
 * links then beats one thin direct link, so the tree routes around links the level file or the probes call thin;
 * for 0 bytes (or without bandwidths) it is the latency {@link ShortestPathTreeBuilder}'s tree.
 */
public final class TransferPathTreeBuilder implements TreeBuilder {

    @Override
    public String name() {
        return "transfer-spt";
    }

    @Override
    public PlanningResult<Tree> build(LatencyMatrix latencies, int root, CostModel cost) {
        int n = latencies.size();
        double[] messageMs = new double[n * n];
        for (int from = 0; from < n; from++) {
            for (int to = 0; to < n; to++) {
                messageMs[from * n + to] = from == to ? 0
                        : latencies.latency(from, to) + cost.transferMs(latencies.name(from), latencies.name(to));
            }
        }
        ShortestPaths paths = ShortestPaths.from(LatencyMatrix.ofRowMajor(latencies.nodes(), messageMs), root);
        int unreachable = paths.firstUnreachable();
        if (unreachable >= 0) {
            return Reachability.noPath(latencies, root, unreachable);
        }
        return PlanningResult.planned(SendOrder.longestSubtreeFirst(name(), latencies, root, paths.parent(), cost));
    }
}
