package dev.canopy.collectives.internal.leader;

import dev.canopy.collectives.plan.SitePairBandwidths;
import dev.canopy.collectives.plan.SizeClasses;
import dev.canopy.collectives.plan.SizedPlan;
import dev.canopy.collectives.plan.TopologyPlan;
import dev.canopy.core.node.Member;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import java.util.List;
import java.util.Objects;

/**
 * A plan as the leader publishes it under {@code epoch}: the latency snapshot and the bandwidth forecasts it was
 * computed from, the predicted completion the leader saw (worst over its reference roots, at the first size it
 * judges: 0 bytes by default, the trees the runtime's default collectives use) and why it replaced the previous
 * one. The trees are a pure function of the inputs and the job's configuration (members, level algorithms, cost
 * model), so a member that rebuilds them with {@link #collectivePlan} gets exactly the leader's trees, for every
 * root and message size, however many epochs have been published since.
 *
 * @param epoch the plan's number, 1 for the first; never reused within a job
 * @param bandwidths the per-site-pair bandwidth forecasts sized trees are planned with; {@link SitePairBandwidths#NONE}
 *     from a latency-only leader
 * @param sizeClasses the message sizes whose trees collectives pick by size ({@link #sizedPlan}): the sizes the
 *     leader judged, each kept only where the model's trees differ from the size below; one class (0 bytes) from a
 *     latency-only leader
 * @param reason one sentence: why this plan replaced the previous epoch
 */
public record PublishedPlan(long epoch, LatencySnapshot latencies, SitePairBandwidths bandwidths,
        SizeClasses sizeClasses, double predictedCompletionMs, String reason) {

    public PublishedPlan {
        if (epoch < 1) {
            throw new IllegalArgumentException("plan epochs start at 1, got " + epoch);
        }
        Objects.requireNonNull(latencies, "latencies");
        Objects.requireNonNull(bandwidths, "bandwidths");
        Objects.requireNonNull(sizeClasses, "sizeClasses");
        Objects.requireNonNull(reason, "reason");
        if (!(predictedCompletionMs >= 0) || Double.isInfinite(predictedCompletionMs)) {
            throw new IllegalArgumentException("plan epoch " + epoch + " predicts " + predictedCompletionMs
                    + " ms; a published plan must reach every member in a finite time");
        }
    }

    /** A latency-only plan: no bandwidth forecasts, one size class. */
    public PublishedPlan(long epoch, LatencySnapshot latencies, double predictedCompletionMs, String reason) {
        this(epoch, latencies, SitePairBandwidths.NONE, predictedCompletionMs, reason);
    }

    /** A plan with bandwidth forecasts and one size class. */
    public PublishedPlan(long epoch, LatencySnapshot latencies, SitePairBandwidths bandwidths,
            double predictedCompletionMs, String reason) {
        this(epoch, latencies, bandwidths, SizeClasses.LATENCY_ONLY, predictedCompletionMs, reason);
    }

    /**
     * The collectives engine's plan for this epoch: the communicator's trees computed on this plan's
     * snapshot. Every member calling it with the same members (rank order) and planner gets the same trees.
     *
     * @param members the communicator's members by rank; their node ids must be the snapshot's members
     */
    public TopologyPlan collectivePlan(List<Member> members, HierarchicalPlanner planner) {
        return collectivePlan(members, planner, epoch);
    }

    private TopologyPlan collectivePlan(List<Member> members, HierarchicalPlanner planner, long id) {
        List<String> names = members.stream().map(TopologyPlan::nameOf).toList();
        if (!names.equals(latencies.members())) {
            throw new IllegalArgumentException("plan epoch " + epoch + " was computed for members " + latencies.members()
                    + " but the communicator has " + names + "; start every member with the same job");
        }
        return new TopologyPlan(members, planner, latencies, id);
    }

    /**
     * This epoch's trees for each of its {@link #sizeClasses}, each planned for its class's size with the epoch's
     * bandwidth forecasts: the collectives engine picks a collective's class by its message size (a bcast's root picks
     * and its frames carry the choice), so no member has to say a size. Class 0 is {@link #collectivePlan(List,
     * HierarchicalPlanner)}'s latency trees under the epoch's own id; trees are computed on first use per root.
     */
    public SizedPlan sizedPlan(List<Member> members, SizedPlanners planners) {
        return new SizedPlan(epoch, sizeClasses, k -> collectivePlan(members,
                planners.plannerFor(sizeClasses.plannedBytes(k), bandwidths), SizedPlan.classId(epoch, k)));
    }

    /**
     * This epoch's trees for messages of {@code messageBytes} alone, priced with its bandwidth forecasts: at 1 MiB they
     * avoid a link the probes measured thin, at 0 bytes they are {@link #collectivePlan(List, HierarchicalPlanner)}'s
     * latency trees. Every collective then runs on these trees whatever its size, so every member must ask for the same
     * size; {@link #sizedPlan} lets each collective pick by its own size instead.
     */
    public TopologyPlan collectivePlan(List<Member> members, SizedPlanners planners, long messageBytes) {
        return collectivePlan(members, planners.plannerFor(messageBytes, bandwidths));
    }
}
