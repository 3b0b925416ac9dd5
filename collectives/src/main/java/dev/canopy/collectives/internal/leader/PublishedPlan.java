package dev.canopy.collectives.internal.leader;

import dev.canopy.collectives.plan.SitePairBandwidths;
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
 * @param reason one sentence: why this plan replaced the previous epoch
 */
public record PublishedPlan(long epoch, LatencySnapshot latencies, SitePairBandwidths bandwidths,
        double predictedCompletionMs, String reason) {

    public PublishedPlan {
        if (epoch < 1) {
            throw new IllegalArgumentException("plan epochs start at 1, got " + epoch);
        }
        Objects.requireNonNull(latencies, "latencies");
        Objects.requireNonNull(bandwidths, "bandwidths");
        Objects.requireNonNull(reason, "reason");
        if (!(predictedCompletionMs >= 0) || Double.isInfinite(predictedCompletionMs)) {
            throw new IllegalArgumentException("plan epoch " + epoch + " predicts " + predictedCompletionMs
                    + " ms; a published plan must reach every member in a finite time");
        }
    }

    /** A latency-only plan: no bandwidth forecasts. */
    public PublishedPlan(long epoch, LatencySnapshot latencies, double predictedCompletionMs, String reason) {
        this(epoch, latencies, SitePairBandwidths.NONE, predictedCompletionMs, reason);
    }

    /**
     * The collectives engine's plan for this epoch: the communicator's trees computed on this plan's
     * snapshot. Every member calling it with the same members (rank order) and planner gets the same trees.
     *
     * @param members the communicator's members by rank; their node ids must be the snapshot's members
     */
    public TopologyPlan collectivePlan(List<Member> members, HierarchicalPlanner planner) {
        List<String> names = members.stream().map(TopologyPlan::nameOf).toList();
        if (!names.equals(latencies.members())) {
            throw new IllegalArgumentException("plan epoch " + epoch + " was computed for members " + latencies.members()
                    + " but the communicator has " + names + "; start every member with the same job");
        }
        return new TopologyPlan(members, planner, latencies, epoch);
    }

    /**
     * This epoch's trees for messages of {@code messageBytes}, priced with its bandwidth forecasts: at 1 MiB they
     * avoid a link the probes measured thin, at 0 bytes they are {@link #collectivePlan(List, HierarchicalPlanner)}'s
     * latency trees. As with sized configured plans, every member must use the same size (a bcast's receivers do not
     * know it), so only a caller that knows the size on every member asks for one.
     */
    public TopologyPlan collectivePlan(List<Member> members, SizedPlanners planners, long messageBytes) {
        return collectivePlan(members, planners.plannerFor(messageBytes, bandwidths));
    }
}
