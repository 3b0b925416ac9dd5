package dev.canopy.topology.internal.hierarchy;

import dev.canopy.topology.internal.graph.LatencyMatrix;
import dev.canopy.topology.internal.tree.CostModel;
import dev.canopy.topology.internal.tree.Tree;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Accumulates arrival times over the group trees of a plan, coarsest level first. A coordinator
 * sends at every level it coordinates, coarse before fine, so its sends in a finer tree start after
 * all its sends in coarser ones.
 */
final class PlanArrivals {

    private final CostModel cost;
    private final Map<String, Double> arrivalMs = new LinkedHashMap<>();
    private final Map<String, Integer> sendsSoFar = new HashMap<>();

    PlanArrivals(CostModel cost, String root) {
        this.cost = cost;
        arrivalMs.put(root, 0.0);
    }

    /** Adds a group tree whose root already has its arrival. */
    void add(Tree tree, LatencyMatrix latencies) {
        String root = tree.root();
        double[] arrivals = cost.arrivalsMs(tree, latencies, arrivalMs.get(root), sendsSoFar.getOrDefault(root, 0));
        for (int v = 0; v < tree.size(); v++) {
            String node = tree.nodes().get(v);
            if (v != tree.rootIndex()) {
                arrivalMs.put(node, arrivals[v]);
            }
            sendsSoFar.merge(node, tree.childCount(v), Integer::sum);
        }
    }

    Map<String, Double> arrivalMs() {
        return arrivalMs;
    }

    double completionMs() {
        double completion = 0;
        for (double arrival : arrivalMs.values()) {
            completion = Math.max(completion, arrival);
        }
        return completion;
    }
}
