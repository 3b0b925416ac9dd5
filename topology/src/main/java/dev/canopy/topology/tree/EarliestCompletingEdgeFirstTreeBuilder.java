package dev.canopy.topology.tree;

import dev.canopy.topology.graph.LatencyMatrix;
import java.util.Arrays;

/**
 * Earliest-completing-edge-first (ECEF, Bhat, Raghavendra and Prasanna 1999), the model-driven tree:
 * among all links {@code c -> n} from a node that has the message to one that has not, take the one
 * whose send would complete first under the {@link CostModel}, {@code ready[c] + s + L(c, n)}; then
 * c is busy for one more send {@code s} and n is ready at its arrival. Send order is the order of
 * selection, so the cost model reproduces the arrivals exactly.
 *
 * <p>Per-send overhead and message size make fan-out expensive: with {@code s = 0} ECEF is Dijkstra
 * (the shortest-path tree); as {@code s} grows it spreads the sending over more relays. Each node
 * keeps its fastest link to a node without the message, rescanned only when that target is taken:
 * O(n^2) expected on a dense matrix.
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
        int[] bestTarget = new int[n];
        boolean[] informed = new boolean[n];
        int[] informedOrder = new int[n];
        int[][] children = new int[n][];
        int[] childCount = new int[n];
        informed[root] = true;
        informedOrder[0] = root;
        bestTarget[root] = fastestUninformed(latencies, root, informed);
        for (int count = 1; count < n; count++) {
            int sender = -1;
            double earliest = Double.POSITIVE_INFINITY;
            for (int i = 0; i < count; i++) {
                int c = informedOrder[i];
                if (bestTarget[c] >= 0) {
                    double completes = ready[c] + send + latencies.latency(c, bestTarget[c]);
                    if (completes < earliest) {
                        earliest = completes;
                        sender = c;
                    }
                }
            }
            if (sender < 0) {
                return Reachability.noPath(latencies, root, firstUninformed(informed));
            }
            int target = bestTarget[sender];
            informed[target] = true;
            informedOrder[count] = target;
            append(children, childCount, sender, target);
            ready[sender] += send;
            ready[target] = earliest;
            bestTarget[target] = fastestUninformed(latencies, target, informed);
            for (int i = 0; i < count; i++) {
                int c = informedOrder[i];
                if (bestTarget[c] == target) {
                    bestTarget[c] = fastestUninformed(latencies, c, informed);
                }
            }
        }
        for (int v = 0; v < n; v++) {
            children[v] = children[v] == null ? new int[0] : Arrays.copyOf(children[v], childCount[v]);
        }
        return PlanningResult.planned(new Tree(name(), latencies.nodes(), root, children));
    }

    private static int fastestUninformed(LatencyMatrix latencies, int from, boolean[] informed) {
        int best = -1;
        double bestMs = Double.POSITIVE_INFINITY;
        for (int v = 0; v < informed.length; v++) {
            if (!informed[v] && latencies.latency(from, v) < bestMs) {
                bestMs = latencies.latency(from, v);
                best = v;
            }
        }
        return best;
    }

    private static int firstUninformed(boolean[] informed) {
        for (int v = 0; v < informed.length; v++) {
            if (!informed[v]) {
                return v;
            }
        }
        throw new IllegalStateException("every node is informed");
    }

    private static void append(int[][] children, int[] childCount, int parent, int child) {
        if (children[parent] == null) {
            children[parent] = new int[4];
        } else if (childCount[parent] == children[parent].length) {
            children[parent] = Arrays.copyOf(children[parent], childCount[parent] * 2);
        }
        children[parent][childCount[parent]++] = child;
    }
}
