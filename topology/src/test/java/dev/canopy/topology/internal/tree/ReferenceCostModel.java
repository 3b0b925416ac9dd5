package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;

/**
 * The cost model transcribed from its definition, recursively and by names, as an oracle for
 * {@link CostModel}: the k-th child (1-based) of p arrives at T(p) + k * max(o + m * G, g) + L(p, c).
 */
final class ReferenceCostModel {

    private ReferenceCostModel() {
    }

    static double arrival(Tree tree, LatencyMatrix latencies, CostModel cost, String node) {
        return tree.parent(node).map(parent -> {
            int k = tree.children(parent).indexOf(node) + 1;
            double perSend = Math.max(cost.overheadMs() + cost.messageBytes() * cost.perByteMs(), cost.gapMs());
            return arrival(tree, latencies, cost, parent) + k * perSend
                    + latencies.latency(latencies.indexOf(parent), latencies.indexOf(node));
        }).orElse(0.0);
    }
}
