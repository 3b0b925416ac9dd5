package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Orders each parent's sends for trees whose method fixes only the edges (flat, MST, HLOT, SPT):
 * longest subtree first. With a per-send cost s, a node's subtree finishes at
 * {@code max_k (k * s + L(v, c_k) + h(c_k))}; sending to the child with the largest
 * {@code L + h} first minimises that (exchange argument), so the order is optimal for the given edges.
 * With s = 0 the order does not change any arrival.
 */
final class SendOrder {

    private SendOrder() {
    }

    static Tree longestSubtreeFirst(String algorithm, LatencyMatrix latencies, int root, int[] parent, CostModel cost) {
        int[][] children = Tree.childLists(parent, root);
        double send = cost.sendCostMs();
        double[] height = new double[parent.length];
        int[] order = breadthFirst(children, root);
        for (int i = order.length - 1; i >= 0; i--) {
            int v = order[i];
            Comparator<Integer> longestFirst = Comparator.<Integer>comparingDouble(
                    c -> -(latencies.latency(v, c) + height[c])).thenComparingInt(c -> c);
            children[v] = Arrays.stream(children[v]).boxed().sorted(longestFirst).mapToInt(Integer::intValue).toArray();
            double h = 0;
            for (int k = 0; k < children[v].length; k++) {
                int c = children[v][k];
                h = Math.max(h, (k + 1) * send + latencies.latency(v, c) + height[c]);
            }
            height[v] = h;
        }
        return new Tree(algorithm, latencies.nodes(), root, children);
    }

    private static int[] breadthFirst(int[][] children, int root) {
        int[] order = new int[children.length];
        int head = 0;
        int tail = 0;
        order[tail++] = root;
        while (head < tail) {
            for (int child : children[order[head++]]) {
                if (tail == order.length) {
                    return order; // a cycle through the root; the Tree constructor reports it
                }
                order[tail++] = child;
            }
        }
        return Arrays.copyOf(order, tail);
    }
}
