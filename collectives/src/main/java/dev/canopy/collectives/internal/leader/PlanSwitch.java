package dev.canopy.collectives.internal.leader;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
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
        return agreedEpoch(collectives).compose(agreed -> agreed == 0 || agreed == collectives.plan().epoch()
                ? Future.succeededFuture(collectives)
                : withEpoch(collectives, agreed, 0));
    }

    /**
     * As {@link #adoptNewest(Collectives)}, with the epoch's trees for messages of {@code messageBytes}
     * ({@link PublishedPlan#collectivePlan(java.util.List, SizedPlanners, long)}: its bandwidth forecasts price every
     * link, so at 1 MiB the trees avoid a link measured thin). Every member must pass the same size. The trees are
     * rebuilt for the size even when the epoch is unchanged (computed on first use per root), so call it when a
     * phase of collectives of that size begins; 0 bytes returns to the epoch's latency trees.
     */
    public Future<Collectives> adoptNewest(Collectives collectives, long messageBytes) {
        if (messageBytes < 0) {
            return Future.failedFuture(new IllegalArgumentException("a message size is >= 0 bytes, got " + messageBytes));
        }
        return agreedEpoch(collectives).compose(agreed -> agreed == 0
                ? Future.succeededFuture(collectives)
                : withEpoch(collectives, agreed, messageBytes));
    }

    /** The highest epoch any member has seen: an allreduce MAX on the current plan. */
    private Future<Long> agreedEpoch(Collectives collectives) {
        return collectives.typed(ArrayType.LONGS).allreduce(new long[] {cache.latestEpoch()}, BuiltInOp.MAX)
                .map(agreed -> agreed[0]);
    }

    private Future<Collectives> withEpoch(Collectives collectives, long epoch, long messageBytes) {
        return cache.plan(epoch).map(plan -> collectives.withPlan(
                plan.collectivePlan(collectives.communicator().members(), planners, messageBytes)));
    }
}
