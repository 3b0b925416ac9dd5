package dev.canopy.collectives.plan;

import dev.canopy.collectives.CollectiveSettings;
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
        return of(members, grid, algorithms, 0);
    }

    /**
     * Trees planned for messages of {@code messageBytes}: the cost model knows the file's site uplinks
     * and link bandwidths and the default pipelining, so {@code auto} (and the send order) weighs
     * what fan-out costs over thin uplinks. With 0 bytes the trees are the latency-optimal ones of
     * {@link #of(List, GridModel, LevelAlgorithms)}. Members must all use the same size: a bcast's
     * receivers do not know the size, so the runtime's default plans are sized 0 and a caller that
     * knows the size for every member (the benchmark) plans per size.
     */
    public static TopologyPlan of(List<Member> members, GridModel grid, LevelAlgorithms algorithms, long messageBytes) {
        Map<String, Coordinates> coordinates = new LinkedHashMap<>();
        for (Member member : members) {
            coordinates.put(TopologyPlan.nameOf(member), member.coordinates());
        }
        long epoch = epochOf(members, grid, algorithms, messageBytes);
        return new TopologyPlan(members, new HierarchicalPlanner(algorithms, cost(grid, coordinates, messageBytes)),
                new GridLatencies(grid, coordinates), epoch);
    }

    /**
     * The cost model of configured plans for messages of {@code messageBytes}: {@link #COST}'s
     * per-send overhead, the file's bandwidths and the default pipelining; {@link #COST} itself for
     * 0 bytes, where bandwidth and pipelining change nothing.
     *
     * @param coordinates every member's coordinates by {@link TopologyPlan#nameOf}
     */
    public static CostModel cost(GridModel grid, Map<String, Coordinates> coordinates, long messageBytes) {
        if (messageBytes == 0) {
            return COST;
        }
        return COST.withMessageBytes(messageBytes)
                .withBandwidths(new GridBandwidths(grid, coordinates))
                .withSegments(CollectiveSettings.defaults().pipeline());
    }

    /** A digest of the plan's inputs built from String hash codes, which are the same in every JVM (enum ones are not). */
    private static long epochOf(List<Member> members, GridModel grid, LevelAlgorithms algorithms, long messageBytes) {
        long hash = GridConfigs.print(grid).hashCode();
        hash = 31 * hash + algorithms.toString().hashCode();
        if (messageBytes != 0) {
            hash = 31 * hash + Long.hashCode(messageBytes);
        }
        for (Member member : members) {
            hash = 31 * hash + member.id().value().hashCode();
        }
        return hash & Long.MAX_VALUE;
    }
}
