package dev.canopy.collectives.leader;

import dev.canopy.topology.graph.LatencySource;
import dev.canopy.topology.hierarchy.HierarchicalPlan;
import dev.canopy.topology.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.hierarchy.Hierarchy;
import dev.canopy.topology.tree.PlanningResult;
import java.util.List;

/**
 * Predicts how fast the plans of a latency snapshot complete, for the leader's re-plan decision. A plan
 * covers every root, but the leader judges it by its reference roots (the roots collectives use most;
 * all members when unknown): the worst predicted completion over them. Stateless.
 */
public final class PlanEvaluator {

    private final Hierarchy hierarchy;
    private final HierarchicalPlanner planner;
    private final List<String> referenceRoots;

    public PlanEvaluator(Hierarchy hierarchy, HierarchicalPlanner planner, List<String> referenceRoots) {
        if (referenceRoots.isEmpty()) {
            throw new IllegalArgumentException("a plan evaluator needs at least one reference root");
        }
        referenceRoots.forEach(hierarchy::coordinates);
        this.hierarchy = hierarchy;
        this.planner = planner;
        this.referenceRoots = List.copyOf(referenceRoots);
    }

    /** Judged by every member as root. */
    public static PlanEvaluator everyRoot(Hierarchy hierarchy, HierarchicalPlanner planner) {
        return new PlanEvaluator(hierarchy, planner, hierarchy.members());
    }

    /** The members a plan is computed for, in rank order. */
    public List<String> members() {
        return hierarchy.members();
    }

    /** Worst predicted completion of the plans computed on {@code latencies}; infinite if one cannot reach everyone. */
    public double completionMs(LatencySnapshot latencies) {
        double worst = 0;
        for (String root : referenceRoots) {
            PlanningResult<HierarchicalPlan> plan = planner.plan(hierarchy, latencies, root, 0);
            if (!plan.isPlanned()) {
                return Double.POSITIVE_INFINITY;
            }
            worst = Math.max(worst, plan.orElseThrow().predictedCompletionMs());
        }
        return worst;
    }

    /** Worst completion of the plans computed on {@code planInputs} when their trees run on {@code fresh} latencies. */
    public double completionMsOn(LatencySnapshot planInputs, LatencySource fresh) {
        double worst = 0;
        for (String root : referenceRoots) {
            HierarchicalPlan plan = planner.plan(hierarchy, planInputs, root, 0).orElseThrow();
            worst = Math.max(worst, plan.predictedCompletionMsOn(fresh));
        }
        return worst;
    }
}
