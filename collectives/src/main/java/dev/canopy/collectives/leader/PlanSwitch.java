package dev.canopy.collectives.leader;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.topology.hierarchy.HierarchicalPlanner;
import io.vertx.core.Future;

/**
 * Moves a communicator's collectives to the plan leader's newest epoch at the same point on every member.
 * Members hear of a new epoch at different moments, so none may switch on its own: {@link #adoptNewest} is
 * itself a collective call (an allreduce of the highest epoch each member has seen, on the current plan),
 * so every member switches between the same two collectives, to the same epoch, whose plan
 * {@link PlanCache#plan} returns identically everywhere.
 */
public final class PlanSwitch {

    private final PlanCache cache;
    private final SizedPlanners planners;

    /** @param planner the job's latency-only planner (level algorithms and cost model), the same on every member */
    public PlanSwitch(PlanCache cache, HierarchicalPlanner planner) {
        this(cache, SizedPlanners.latencyOnly(planner));
    }

    /** @param planners the job's planners by message size, the same on every member */
    public PlanSwitch(PlanCache cache, SizedPlanners planners) {
        this.cache = cache;
        this.planners = planners;
    }

    /**
     * Call on every member at the same point of its sequence of collectives. Completes with collectives on
     * the highest epoch any member has seen, or with {@code collectives} itself when that is no newer.
     */
    public Future<Collectives> adoptNewest(Collectives collectives) {
        return adoptNewest(collectives, 0);
    }

    /**
     * As {@link #adoptNewest(Collectives)}, with the epoch's trees for messages of {@code messageBytes}
     * ({@link PublishedPlan#collectivePlan(java.util.List, SizedPlanners, long)}): every member must pass the same
     * size, and the collectives returned should carry messages of about that size.
     */
    public Future<Collectives> adoptNewest(Collectives collectives, long messageBytes) {
        return collectives.typed(ArrayType.LONGS).allreduce(new long[] {cache.latestEpoch()}, BuiltInOp.MAX)
                .compose(agreed -> agreed[0] == 0 || agreed[0] == collectives.plan().epoch()
                        ? Future.succeededFuture(collectives)
                        : cache.plan(agreed[0]).map(plan -> collectives.withPlan(
                                plan.collectivePlan(collectives.communicator().members(), planners, messageBytes))));
    }
}
