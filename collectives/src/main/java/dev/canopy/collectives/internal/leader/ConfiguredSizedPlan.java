package dev.canopy.collectives.internal.leader;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.canopy.collectives.plan.CollectivePlan;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.GridLatencies;
import dev.canopy.collectives.plan.SitePairBandwidths;
import dev.canopy.collectives.plan.SizeClasses;
import dev.canopy.collectives.plan.SizedPlan;
import dev.canopy.collectives.plan.TopologyPlan;
import dev.canopy.core.node.Member;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.topology.internal.hierarchy.Hierarchy;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.LogGpParameters;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The level file's plan with trees per message size, for a job without probes: the size classes a plan leader would
 * state for an epoch of the file's latencies and bandwidths ({@link PlanEvaluator#sizeClasses} of
 * {@link PlanEvaluator#DEFAULT_MESSAGE_SIZES}, each site's first member a reference root), each class's trees planned
 * with the same cost model ({@link ConfiguredPlans#planner}: the file's uplinks and link bandwidths, the deployment's
 * LogGP parameters) and carrying the same wire class ids ({@link SizedPlan#classId}). So an {@code auto} level picks a
 * size-aware tree for large messages while small ones keep the latency trees, and the collectives engine picks each
 * collective's class by its size as it does on a live epoch. Class 0 is {@link ConfiguredPlans#of}'s latency plan
 * under its own id.
 *
 * <p>Pure: every member given the same members, file, algorithms and parameters gets the same classes and trees.
 * Finding the classes plans one root per site at each size (about a second for twenty processes on ten sites); call
 * {@link #of} off the event loop. The classes are remembered per job, so the members of one JVM (an emulated grid, a
 * benchmark) find them once rather than once each; the plans themselves stay per member (their trees are computed
 * lazily and owned by the member's context).
 */
public final class ConfiguredSizedPlan {

    // A few jobs at most live in one JVM at a time; concurrent joins of one job wait for the first computation.
    private static final Cache<JobInputs, SizeClasses> CLASSES = Caffeine.newBuilder().maximumSize(8).build();

    /** Everything the classes depend on. */
    private record JobInputs(List<Member> members, GridModel grid, LevelAlgorithms algorithms, LogGpParameters loggp) {
    }

    private ConfiguredSizedPlan() {
    }

    /** The sized plan, or the latency plan alone when every size's trees are the same (one class). */
    public static CollectivePlan of(List<Member> members, GridModel grid, LevelAlgorithms algorithms,
            LogGpParameters loggp) {
        Map<String, Coordinates> coordinates = ConfiguredPlans.coordinatesOf(members);
        SizedPlanners planners = (messageBytes, bandwidths) -> ConfiguredPlans.planner(grid, coordinates, algorithms,
                messageBytes, loggp, bandwidths);
        GridLatencies latencies = new GridLatencies(grid, coordinates, loggp);
        SizeClasses classes = CLASSES.get(new JobInputs(List.copyOf(members), grid, algorithms, loggp),
                inputs -> new PlanEvaluator(Hierarchy.of(coordinates), planners, firstOfEachSite(coordinates),
                        PlanEvaluator.DEFAULT_MESSAGE_SIZES).sizeClasses(latencies, SitePairBandwidths.NONE));
        TopologyPlan latencyTrees = ConfiguredPlans.of(members, grid, algorithms, 0, loggp);
        if (classes.count() == 1) {
            return latencyTrees;
        }
        long baseId = latencyTrees.epoch();
        return new SizedPlan(baseId, classes, k -> k == 0 ? latencyTrees : new TopologyPlan(members,
                planners.plannerFor(classes.plannedBytes(k), SitePairBandwidths.NONE), latencies,
                SizedPlan.classId(baseId, k)));
    }

    /**
     * The reference roots that tell the classes apart: the first member of each site. The file gives every member of a
     * site the same links and uplink, so its other members' trees differ from the first's only inside the site; and
     * planning every member at every size would cost a large job seconds at join.
     */
    private static List<String> firstOfEachSite(Map<String, Coordinates> coordinates) {
        Map<String, String> firstBySite = new LinkedHashMap<>();
        coordinates.forEach((member, at) -> firstBySite.putIfAbsent(at.site(), member));
        return List.copyOf(firstBySite.values());
    }
}
