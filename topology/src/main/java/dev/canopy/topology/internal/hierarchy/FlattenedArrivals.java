package dev.canopy.topology.internal.hierarchy;

import dev.canopy.topology.internal.graph.LatencySource;
import dev.canopy.topology.internal.tree.BroadcastSimulation;
import dev.canopy.topology.internal.tree.CostModel;
import dev.canopy.topology.internal.tree.Tree;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Arrival times of a plan replayed as one tree over all members, the way the runtime runs it: every
 * coordinator sends at its coarsest level first, segments are forwarded across levels as they
 * arrive, and sends of all levels share their sites' uplinks. Used when the cost model knows
 * bandwidths or pipelining, where group-by-group accumulation ({@link PlanArrivals}) would miss
 * that sharing.
 */
final class FlattenedArrivals {

    private FlattenedArrivals() {
    }

    static Map<String, Double> of(String root, List<GroupTree> trees, LatencySource latencies, CostModel cost) {
        Map<String, Integer> index = new LinkedHashMap<>();
        index.put(root, 0);
        Map<Integer, List<Integer>> sends = new HashMap<>();
        for (GroupTree group : trees) {
            Tree tree = group.tree();
            for (Tree.Edge edge : tree.edges()) {
                int parent = index.computeIfAbsent(tree.nodes().get(edge.parent()), name -> index.size());
                int child = index.computeIfAbsent(tree.nodes().get(edge.child()), name -> index.size());
                sends.computeIfAbsent(parent, key -> new ArrayList<>()).add(child);
            }
        }
        List<String> names = List.copyOf(index.keySet());
        int[][] children = new int[names.size()][];
        for (int v = 0; v < children.length; v++) {
            children[v] = sends.getOrDefault(v, List.of()).stream().mapToInt(Integer::intValue).toArray();
        }
        double[] arrivals = BroadcastSimulation.arrivalsMs(names, 0, children,
                (parent, child) -> latencies.oneWayMs(names.get(parent), names.get(child)), cost, 0, 0);
        Map<String, Double> byName = new LinkedHashMap<>();
        for (int v = 0; v < names.size(); v++) {
            byName.put(names.get(v), arrivals[v]);
        }
        return byName;
    }
}
