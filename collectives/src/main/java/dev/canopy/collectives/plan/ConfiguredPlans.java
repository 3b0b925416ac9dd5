package dev.canopy.collectives.plan;

import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.internal.engine.ExchangeFlow;
import dev.canopy.core.comm.MessageLimits;
import dev.canopy.core.node.Member;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.probes.internal.forecast.LinkForecast;
import dev.canopy.topology.internal.graph.BandwidthSource;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.CostModel;
import dev.canopy.topology.internal.tree.LogGpParameters;
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

    /**
     * The cost model before anything was measured ({@link LogGpParameters#DEFAULTS}, 20 µs per send), used to
     * order sends and let {@code auto} weigh fan-out.
     */
    public static final CostModel COST = LogGpParameters.DEFAULTS.costModel(0);

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
        return of(members, grid, algorithms, messageBytes, LogGpParameters.DEFAULTS);
    }

    /**
     * Trees planned with the deployment's measured LogGP parameters ({@code canopy calibrate}): their o, g
     * and G in the cost model, their per-level latencies inside sites ({@link GridLatencies}). Every member
     * must use the same parameters (they read the same sealed znode); they are part of the epoch.
     */
    public static TopologyPlan of(List<Member> members, GridModel grid, LevelAlgorithms algorithms, long messageBytes,
            LogGpParameters loggp) {
        return of(members, grid, algorithms, messageBytes, loggp, List.of());
    }

    /**
     * Trees planned with the bandwidth prober's forecasts where the level file gives no bandwidth
     * ({@link ProbedBandwidths}: a site pair's forecast for its link, a site's highest for its uplink). Every member
     * must plan from the same forecasts (a leader's snapshot, say); the forecast values used are part of the epoch.
     *
     * @param forecasts the forecasts a node holds: its own and the published site pairs ({@code SiteCompletedFeed})
     */
    public static TopologyPlan of(List<Member> members, GridModel grid, LevelAlgorithms algorithms, long messageBytes,
            LogGpParameters loggp, List<LinkForecast> forecasts) {
        Map<String, Coordinates> coordinates = coordinatesOf(members);
        ProbedBandwidths bandwidths = ProbedBandwidths.of(grid, coordinates, forecasts);
        long epoch = epochOf(members, grid, algorithms, messageBytes, loggp, bandwidths);
        return new TopologyPlan(members, new HierarchicalPlanner(algorithms, cost(messageBytes, loggp, bandwidths, members.size())),
                new GridLatencies(grid, coordinates, loggp), epoch);
    }

    /**
     * The planner of trees for messages of {@code messageBytes} whose bandwidths are the level file's completed with
     * frozen forecasts ({@link ProbedBandwidths}), e.g. those a live plan's epoch carries; the latency-only planner of
     * {@code loggp} for 0 bytes. Every member given the same inputs gets the same planner.
     *
     * @param coordinates every member's coordinates by {@link TopologyPlan#nameOf}
     */
    public static HierarchicalPlanner planner(GridModel grid, Map<String, Coordinates> coordinates,
            LevelAlgorithms algorithms, long messageBytes, LogGpParameters loggp, SitePairBandwidths probed) {
        return new HierarchicalPlanner(algorithms,
                cost(messageBytes, loggp, ProbedBandwidths.of(grid, coordinates, probed), coordinates.size()));
    }

    /** Every member's coordinates by {@link TopologyPlan#nameOf}, in rank order. */
    public static Map<String, Coordinates> coordinatesOf(List<Member> members) {
        Map<String, Coordinates> coordinates = new LinkedHashMap<>();
        for (Member member : members) {
            coordinates.put(TopologyPlan.nameOf(member), member.coordinates());
        }
        return coordinates;
    }

    /**
     * The cost model of configured plans for messages of {@code messageBytes}: {@link #COST}'s
     * per-send overhead, the file's bandwidths, the default pipelining and the default flow control between
     * {@code coordinates.size()} processes ({@link ExchangeFlow}); {@link #COST} itself for 0 bytes, where bandwidth,
     * pipelining and flow control change nothing.
     *
     * @param coordinates every member's coordinates by {@link TopologyPlan#nameOf}
     */
    public static CostModel cost(GridModel grid, Map<String, Coordinates> coordinates, long messageBytes) {
        return cost(grid, coordinates, messageBytes, LogGpParameters.DEFAULTS);
    }

    /** As {@link #cost(GridModel, Map, long)} with the measured {@code loggp} in place of the defaults. */
    public static CostModel cost(GridModel grid, Map<String, Coordinates> coordinates, long messageBytes,
            LogGpParameters loggp) {
        return cost(messageBytes, loggp, new GridBandwidths(grid, coordinates), coordinates.size());
    }

    private static CostModel cost(long messageBytes, LogGpParameters loggp, BandwidthSource bandwidths, int processes) {
        if (messageBytes == 0) {
            return loggp.costModel(0);
        }
        return loggp.costModel(messageBytes)
                .withBandwidths(bandwidths)
                .withSegments(CollectiveSettings.defaults().pipeline())
                .withFlow(ExchangeFlow.of(MessageLimits.defaults(), processes));
    }

    /** A digest of the plan's inputs built from String hash codes, which are the same in every JVM (enum ones are not). */
    private static long epochOf(List<Member> members, GridModel grid, LevelAlgorithms algorithms, long messageBytes,
            LogGpParameters loggp, ProbedBandwidths bandwidths) {
        long hash = GridConfigs.print(grid).hashCode();
        hash = 31 * hash + algorithms.toString().hashCode();
        if (messageBytes != 0) {
            hash = 31 * hash + Long.hashCode(messageBytes);
        }
        if (!loggp.equals(LogGpParameters.DEFAULTS)) {
            hash = 31 * hash + loggp.toString().hashCode();
        }
        if (messageBytes != 0 && bandwidths.measuredAny()) {
            hash = 31 * hash + bandwidths.toString().hashCode();
        }
        for (Member member : members) {
            hash = 31 * hash + member.id().value().hashCode();
        }
        return hash & Long.MAX_VALUE;
    }
}
