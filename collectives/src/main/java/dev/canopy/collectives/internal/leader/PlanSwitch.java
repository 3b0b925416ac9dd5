package dev.canopy.collectives.internal.leader;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.plan.CollectivePlan;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.node.Member;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import io.vertx.core.Future;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a communicator's collectives to the plan leader's newest epoch at the same point on every member.
 * Members hear of a new epoch at different moments, so none may switch on its own: {@link #adoptNewest} is
 * itself a collective call (an allreduce of the highest epoch each member has seen, on the current plan),
 * so every member switches between the same two collectives, to the same epoch, whose plan
 * {@link PlanCache#plan} returns identically everywhere. The adopted plan has trees per size class
 * ({@link PublishedPlan#sizedPlan}): from then on each collective picks its message size's trees itself.
 *
 * <p>An agreed epoch whose znode this job's secret did not seal ({@link UntrustedPlanException}: a forgery, a plan
 * replayed from another job or epoch) is not adopted: the member keeps its plan, logs why and counts it
 * ({@link #rejectedPlans}). Every member reads the same znode under the same secret, so all keep theirs alike.
 */
public final class PlanSwitch {

    private static final Logger LOG = LoggerFactory.getLogger(PlanSwitch.class);

    private final PlanCache cache;
    private final SizedPlanners planners;
    private final AtomicLong rejected = new AtomicLong();

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
                : cache.plan(agreed).map(plan -> collectives.withPlan(plan(plan, collectives)))
                        .recover(e -> keepOnUntrusted(e, collectives, agreed)));
    }

    /** How many agreed epochs this member did not adopt because their plans were not sealed by this job. */
    public long rejectedPlans() {
        return rejected.get();
    }

    private Future<Collectives> keepOnUntrusted(Throwable failure, Collectives collectives, long agreed) {
        if (!(failure instanceof UntrustedPlanException)) {
            return Future.failedFuture(failure);
        }
        LOG.warn("rank {} keeps plan {} instead of epoch {} ({} rejected so far): {}", collectives.rank(),
                collectives.plan().epoch(), agreed, rejected.incrementAndGet(), failure.getMessage());
        return Future.succeededFuture(collectives);
    }

    /** The highest epoch any member has seen: an allreduce MAX on the current plan. */
    private Future<Long> agreedEpoch(Collectives collectives) {
        return collectives.typed(ArrayType.LONGS).allreduce(new long[] {cache.latestEpoch()}, BuiltInOp.MAX)
                .map(agreed -> agreed[0]);
    }

    /** The epoch's sized plan; with one size class, its latency plan itself (what tools that inspect trees expect). */
    private CollectivePlan plan(PublishedPlan plan, Collectives collectives) {
        List<Member> members = collectives.communicator().members();
        return plan.sizeClasses().count() == 1 ? plan.collectivePlan(members, planners.plannerFor(0, plan.bandwidths()))
                : plan.sizedPlan(members, planners);
    }
}
