package dev.canopy.dashboard.plan;

import dev.canopy.collectives.internal.leader.PlanEvaluator;
import dev.canopy.collectives.internal.leader.PublishedPlan;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.dashboard.model.GridMember;
import dev.canopy.dashboard.model.JobSnapshot;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.hierarchy.Hierarchy;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What a re-plan was predicted to gain, judged as the plan leader judges it: the previous epoch's trees run on the
 * new epoch's latencies (worst over every root) against the new plan's predicted completion. The trees come from
 * the level file's algorithms and Canopy's cost model, as every member rebuilds them.
 */
public final class ReplanGain {

    private final HierarchicalPlanner planner;

    public ReplanGain(GridModel grid) {
        this.planner = new HierarchicalPlanner(LevelChoices.of(grid.levels()), ConfiguredPlans.COST);
    }

    /** The previous plan's worst completion on the new plan's latencies; empty when the members are not all known. */
    public OptionalDouble previousPlanOnNewLatenciesMs(JobSnapshot snapshot, PublishedPlan previous, PublishedPlan next) {
        if (!previous.latencies().members().equals(next.latencies().members())) {
            return OptionalDouble.empty();
        }
        Map<String, Coordinates> coordinates = new LinkedHashMap<>();
        for (String name : next.latencies().members()) {
            Optional<GridMember> member = snapshot.byId(name);
            if (member.isEmpty()) {
                return OptionalDouble.empty();
            }
            coordinates.put(name, member.get().member().coordinates());
        }
        PlanEvaluator evaluator = PlanEvaluator.everyRoot(Hierarchy.of(coordinates), planner);
        return OptionalDouble.of(evaluator.completionMsOn(previous.latencies(), next.latencies()));
    }
}
