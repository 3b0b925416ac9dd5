package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * Earliest completing edge first ({@link EarliestCompletingEdgeFirstTreeBuilder}) with at most
 * {@code maxChildren} children per node: the bandwidth-aware trees. A node's children share its
 * uplink, so over thin uplinks a large message reaches k children only after k message times;
 * bounding the fan-out and pipelining the segments down a deeper tree wins there. With one child
 * per node the tree is a chain (each node relays to its nearest node without the message), with two
 * a binary tree grown toward the nearest nodes.
 *
 * <p>When the bound leaves a node unreachable (every measured link to it starts at a full sender),
 * full senders may take more children, so the builder fails only where no measured path exists.
 */
public final class BoundedFanOutTreeBuilder implements TreeBuilder {

    private final String name;
    private final int maxChildren;

    public BoundedFanOutTreeBuilder(String name, int maxChildren) {
        if (maxChildren < 1) {
            throw new IllegalArgumentException("maxChildren must be >= 1, got " + maxChildren);
        }
        this.name = name;
        this.maxChildren = maxChildren;
    }

    /** One child per node: a pipelined chain. */
    public static BoundedFanOutTreeBuilder chain() {
        return new BoundedFanOutTreeBuilder("chain", 1);
    }

    /** At most two children per node. */
    public static BoundedFanOutTreeBuilder binary() {
        return new BoundedFanOutTreeBuilder("binary", 2);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public PlanningResult<Tree> build(LatencyMatrix latencies, int root, CostModel cost) {
        int n = latencies.size();
        double send = cost.sendCostMs();
        double[] ready = new double[n];
        int[] childCount = new int[n];
        boolean[] informed = new boolean[n];
        int[] informedRank = new int[n];
        int[] informedOrder = new int[n];
        int[] parent = new int[n];
        parent[root] = -1;
        NearestUninformed nearest = new NearestUninformed(latencies, informed);
        PriorityQueue<CandidateSend> sends = new PriorityQueue<>(Comparator.comparingDouble(CandidateSend::completesMs)
                .thenComparingInt(next -> informedRank[next.sender()]));
        informed[root] = true;
        informedOrder[0] = root;
        boolean bounded = true;
        CandidateSend.offer(sends, nearest, latencies, root, ready[root] + send);
        for (int count = 1; count < n; count++) {
            CandidateSend next = poll(sends, nearest, latencies, informed, ready, send);
            if (next == null && bounded) {
                bounded = false; // the bound cut every measured link to the rest: let full senders send more
                for (int i = 0; i < count; i++) {
                    CandidateSend.offer(sends, nearest, latencies, informedOrder[i], ready[informedOrder[i]] + send);
                }
                next = poll(sends, nearest, latencies, informed, ready, send);
            }
            if (next == null) {
                return Reachability.noPath(latencies, root, informed);
            }
            int sender = next.sender();
            int target = next.target();
            informed[target] = true;
            informedRank[target] = count;
            informedOrder[count] = target;
            parent[target] = sender;
            childCount[sender]++;
            ready[sender] += send;
            ready[target] = next.completesMs();
            if (!bounded || childCount[sender] < maxChildren) {
                CandidateSend.offer(sends, nearest, latencies, sender, ready[sender] + send);
            }
            CandidateSend.offer(sends, nearest, latencies, target, ready[target] + send);
        }
        return PlanningResult.planned(SendOrder.longestSubtreeFirst(name, latencies, root, parent, cost));
    }

    /** The earliest candidate whose target still lacks the message, re-offering senders whose target was taken. */
    private static CandidateSend poll(PriorityQueue<CandidateSend> sends, NearestUninformed nearest,
            LatencyMatrix latencies, boolean[] informed, double[] ready, double send) {
        CandidateSend next = sends.poll();
        while (next != null && informed[next.target()]) {
            CandidateSend.offer(sends, nearest, latencies, next.sender(), ready[next.sender()] + send);
            next = sends.poll();
        }
        return next;
    }
}
