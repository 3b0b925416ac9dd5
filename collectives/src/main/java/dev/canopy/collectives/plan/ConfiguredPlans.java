package dev.canopy.collectives.plan;

import dev.canopy.core.node.Member;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.topology.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.hierarchy.LevelAlgorithms;
import dev.canopy.topology.tree.CostModel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plans computed by every member from the level file alone (configured RTTs and per-level
 * algorithms). Identical inputs give identical plans on every member, so no plan leader is needed
 * for them; the epoch is derived from the inputs, so members that loaded different files or
 * algorithms fail their first collective with a mismatch instead of deadlocking.
 */
public final class ConfiguredPlans {

    /** Per-send overhead used to order sends and let {@code auto} weigh fan-out: 20 µs. */
    public static final CostModel COST = new CostModel(0.02, 0, 0, 0);

    private ConfiguredPlans() {
    }

    /** The level file's algorithms at every level. */
    public static TopologyPlan of(List<Member> members, GridModel grid) {
        return of(members, grid, LevelChoices.of(grid.levels()));
    }

    /** Explicit per-level tree methods (e.g. the file's choices with another heavy-WAN algorithm). */
    public static TopologyPlan of(List<Member> members, GridModel grid, LevelAlgorithms algorithms) {
        Map<String, Coordinates> coordinates = new LinkedHashMap<>();
        for (Member member : members) {
            coordinates.put(TopologyPlan.nameOf(member), member.coordinates());
        }
        long epoch = epochOf(members, grid, algorithms);
        return new TopologyPlan(members, new HierarchicalPlanner(algorithms, COST), new GridLatencies(grid, coordinates), epoch);
    }

    /** A digest of the plan's inputs built from String hash codes, which are the same in every JVM (enum ones are not). */
    private static long epochOf(List<Member> members, GridModel grid, LevelAlgorithms algorithms) {
        long hash = GridConfigs.print(grid).hashCode();
        hash = 31 * hash + algorithms.toString().hashCode();
        for (Member member : members) {
            hash = 31 * hash + member.id().value().hashCode();
        }
        return hash & Long.MAX_VALUE;
    }
}
