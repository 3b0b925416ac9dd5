package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * Earliest-completing-edge-first (ECEF, Bhat, Raghavendra and Prasanna 1999), the model-driven tree:
 * among all links {@code c -> n} from a node that has the message to one that has not, take the one
 * whose send would complete first under the {@link CostModel}, {@code ready[c] + s + L(c, n)}; then
 * c is busy for one more send {@code s} and n is ready at its arrival. The chosen edges are then sent
 * longest subtree first ({@link SendOrder}), which is optimal for those edges and so never later than
 * the order of selection.
 *
 * <p>Per-send overhead and message size make fan-out expensive: with {@code s = 0} ECEF is Dijkstra
 * (the shortest-path tree); as {@code s} grows it spreads the sending over more relays. Candidate
 * sends wait in a priority queue, one per informed sender, and each sender's fastest link to a node
 * without the message comes from {@link NearestUninformed}: O(n^2) to build the rows' heaps, then
 * O(log n) per send and per taken target that surfaces.
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
        int[] informedRank = new int[n];
        int[] parent = new int[n];
        parent[root] = -1;
        NearestUninformed nearest = new NearestUninformed(latencies, informed);
        // Each informed sender's next send, by completion time then by when the sender was informed.
        // Keys only grow (a sender's target gets taken, or it sends), so an entry whose target is
        // taken is re-keyed when it surfaces, and the first valid entry popped is the earliest edge.
        PriorityQueue<CandidateSend> sends = new PriorityQueue<>(Comparator.comparingDouble(CandidateSend::completesMs)
                .thenComparingInt(next -> informedRank[next.sender()]));
        informed[root] = true;
        CandidateSend.offer(sends, nearest, latencies, root, ready[root] + send);
        for (int count = 1; count < n; count++) {
            CandidateSend next = sends.poll();
            while (next != null && informed[next.target()]) {
                CandidateSend.offer(sends, nearest, latencies, next.sender(), ready[next.sender()] + send);
                next = sends.poll();
            }
            if (next == null) {
                return Reachability.noPath(latencies, root, informed);
            }
            int target = next.target();
            informed[target] = true;
            informedRank[target] = count;
            parent[target] = next.sender();
            ready[next.sender()] += send;
            ready[target] = next.completesMs();
            CandidateSend.offer(sends, nearest, latencies, next.sender(), ready[next.sender()] + send);
            CandidateSend.offer(sends, nearest, latencies, target, ready[target] + send);
        }
        return PlanningResult.planned(SendOrder.longestSubtreeFirst(name(), latencies, root, parent, cost));
    }
}
