package dev.canopy.collectives.internal.leader;

import dev.canopy.collectives.plan.SitePairBandwidths;
import dev.canopy.collectives.plan.SizeClasses;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.probes.internal.forecast.LinkForecast;
import dev.canopy.topology.internal.graph.LatencySource;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlan;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.hierarchy.Hierarchy;
import dev.canopy.topology.internal.tree.CostModel;
import dev.canopy.topology.internal.tree.PlanningResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Predicts how fast the plans of a snapshot complete, for the leader's re-plan decision. A plan covers every root,
 * but the leader judges it by its reference roots (the roots collectives use most; all members when unknown): the
 * worst predicted completion over them. It judges at every message size that matters: size 0 with latency alone,
 * and each larger size with the snapshot's bandwidth forecasts, where thin links decide. Stateless.
 */
public final class PlanEvaluator {

    /**
     * The message sizes a bandwidth-aware leader judges plans at by default, and the lower bounds of the size classes
     * whose trees collectives pick by size: latency-bound, 64 KiB, 1 MiB and 16 MiB (where a thin link's transfer
     * outweighs a 60 ms WAN round trip below about 8, 140 and 2,200 Mbit/s respectively).
     * Each size plans every reference root once or twice per evaluation, so the cost grows with their number.
     */
    public static final List<Long> DEFAULT_MESSAGE_SIZES = List.of(0L, 64L << 10, 1L << 20, 16L << 20);

    /**
     * One message size's predictions: the current plan's trees on the fresh forecasts (NaN without a current plan)
     * against new trees computed on them; {@code candidateTrees} is a digest of those new trees' shape (every
     * reference root's children per member), equal for two sizes whose new trees are the same.
     */
    public record SizedPrediction(long messageBytes, double currentMs, double candidateMs, long candidateTrees) {

        /** How much faster the new trees are, as a fraction of the current completion (1 if the current cannot complete). */
        double relativeGain() {
            if (Double.isInfinite(currentMs)) {
                return Double.isInfinite(candidateMs) ? 0 : 1;
            }
            return currentMs == 0 ? 0 : (currentMs - candidateMs) / currentMs;
        }
    }

    private final Hierarchy hierarchy;
    private final SizedPlanners planners;
    private final List<String> referenceRoots;
    private final List<Long> messageSizes;

    /** Latency only: judged at size 0 with {@code planner}, and snapshots carry no bandwidths. */
    public PlanEvaluator(Hierarchy hierarchy, HierarchicalPlanner planner, List<String> referenceRoots) {
        this(hierarchy, SizedPlanners.latencyOnly(planner), referenceRoots, List.of(0L));
    }

    /**
     * @param messageSizes the sizes plans are judged at, distinct, each >= 0; a size above 0 makes the leader
     *     snapshot bandwidth forecasts and publish them with its plans
     */
    public PlanEvaluator(Hierarchy hierarchy, SizedPlanners planners, List<String> referenceRoots,
            List<Long> messageSizes) {
        if (referenceRoots.isEmpty()) {
            throw new IllegalArgumentException("a plan evaluator needs at least one reference root");
        }
        if (messageSizes.isEmpty() || messageSizes.stream().anyMatch(size -> size < 0)
                || messageSizes.stream().distinct().count() != messageSizes.size()) {
            throw new IllegalArgumentException("a plan evaluator judges at one or more distinct message sizes >= 0 bytes, got "
                    + messageSizes);
        }
        referenceRoots.forEach(hierarchy::coordinates);
        this.hierarchy = hierarchy;
        this.planners = planners;
        this.referenceRoots = List.copyOf(referenceRoots);
        this.messageSizes = List.copyOf(messageSizes);
    }

    /** Judged by every member as root, latency only. */
    public static PlanEvaluator everyRoot(Hierarchy hierarchy, HierarchicalPlanner planner) {
        return new PlanEvaluator(hierarchy, planner, hierarchy.members());
    }

    /** Judged by every member as root at each of {@code messageSizes}. */
    public static PlanEvaluator everyRoot(Hierarchy hierarchy, SizedPlanners planners, List<Long> messageSizes) {
        return new PlanEvaluator(hierarchy, planners, hierarchy.members(), messageSizes);
    }

    /** The members a plan is computed for, in rank order. */
    public List<String> members() {
        return hierarchy.members();
    }

    /** Whether plans are judged at a size above 0, so bandwidth forecasts matter. */
    public boolean weighsBandwidth() {
        return messageSizes.stream().anyMatch(size -> size > 0);
    }

    /**
     * The bandwidth forecasts between the members' sites ({@link SitePairBandwidths#of(Map, List)}), or
     * {@link SitePairBandwidths#NONE} when plans are judged at size 0 alone.
     */
    public SitePairBandwidths bandwidths(List<LinkForecast> forecasts) {
        if (!weighsBandwidth()) {
            return SitePairBandwidths.NONE;
        }
        Map<String, Coordinates> coordinates = new LinkedHashMap<>();
        for (String member : hierarchy.members()) {
            coordinates.put(member, hierarchy.coordinates(member));
        }
        return SitePairBandwidths.of(coordinates, forecasts);
    }

    /**
     * At every message size: the worst completion of {@code current}'s trees (computed on its own inputs) when they
     * run on the fresh forecasts, and of new trees computed on the fresh forecasts. Plans every reference root once
     * or twice per size: call it off the event loop.
     *
     * @param current the plan in force, or null before the first
     */
    public List<SizedPrediction> predict(PublishedPlan current, LatencySnapshot fresh, SitePairBandwidths freshBandwidths) {
        List<SizedPrediction> predictions = new ArrayList<>(messageSizes.size());
        for (long size : messageSizes) {
            HierarchicalPlanner freshPlanner = planners.plannerFor(size, freshBandwidths);
            double currentMs = current == null ? Double.NaN
                    : completionMsOn(planners.plannerFor(size, current.bandwidths()), current.latencies(), fresh,
                            freshPlanner.cost());
            Candidates candidates = candidates(freshPlanner, fresh);
            predictions.add(new SizedPrediction(size, currentMs, candidates.worstMs(), candidates.treesDigest()));
        }
        return predictions;
    }

    /**
     * The size classes whose new trees differ: the judged sizes, each kept only when its trees differ from those of
     * the last size kept (by {@link SizedPrediction#candidateTrees}), so collectives compute and pick only trees the
     * model tells apart.
     */
    public static SizeClasses distinctClasses(List<SizedPrediction> predictions) {
        List<Long> kept = new ArrayList<>();
        long lastTrees = 0;
        for (SizedPrediction prediction : predictions) {
            if (kept.isEmpty() || prediction.candidateTrees() != lastTrees) {
                kept.add(prediction.messageBytes());
                lastTrees = prediction.candidateTrees();
            }
        }
        return kept.get(0) == 0 ? new SizeClasses(kept) : SizeClasses.LATENCY_ONLY;
    }

    /**
     * The size classes of trees computed on {@code latencies} and {@code bandwidths} ({@link #distinctClasses}): those a
     * leader would state for an epoch of these inputs. Plans every reference root once per size: call it off the event
     * loop.
     */
    public SizeClasses sizeClasses(LatencySource latencies, SitePairBandwidths bandwidths) {
        List<SizedPrediction> trees = new ArrayList<>(messageSizes.size());
        for (long size : messageSizes) {
            HierarchicalPlanner planner = planners.plannerFor(size, bandwidths);
            long digest = 1;
            for (String root : referenceRoots) {
                digest = digest(planner.plan(hierarchy, latencies, root, 0).orElseThrow(), digest);
            }
            trees.add(new SizedPrediction(size, Double.NaN, Double.NaN, digest));
        }
        return distinctClasses(trees);
    }

    /** Worst predicted completion at size 0 of the plans computed on {@code latencies}; infinite if one cannot reach everyone. */
    public double completionMs(LatencySnapshot latencies) {
        return candidates(planners.plannerFor(0, SitePairBandwidths.NONE), latencies).worstMs();
    }

    /** Worst completion at size 0 of the plans computed on {@code planInputs} when their trees run on {@code fresh} latencies. */
    public double completionMsOn(LatencySnapshot planInputs, LatencySource fresh) {
        HierarchicalPlanner planner = planners.plannerFor(0, SitePairBandwidths.NONE);
        return completionMsOn(planner, planInputs, fresh, planner.cost());
    }

    /** New trees' worst predicted completion over the reference roots, and a digest of their shape. */
    private record Candidates(double worstMs, long treesDigest) {
    }

    private Candidates candidates(HierarchicalPlanner planner, LatencySnapshot latencies) {
        double worst = 0;
        long digest = 1;
        for (String root : referenceRoots) {
            PlanningResult<HierarchicalPlan> plan = planner.plan(hierarchy, latencies, root, 0);
            if (!plan.isPlanned()) {
                return new Candidates(Double.POSITIVE_INFINITY, 0);
            }
            HierarchicalPlan planned = plan.orElseThrow();
            worst = Math.max(worst, planner.cost().messageBytes() == 0 ? planned.predictedCompletionMs()
                    : replayedCompletionMs(planned, latencies, planner.cost()));
            digest = digest(planned, digest);
        }
        return new Candidates(worst, digest);
    }

    /** {@code digest} extended by the shape of {@code plan}'s trees: every member's sends. */
    private long digest(HierarchicalPlan plan, long digest) {
        for (String member : hierarchy.members()) {
            digest = 31 * digest + plan.sends(member).hashCode();
        }
        return digest;
    }

    /**
     * The trees {@code planner} computes on {@code planInputs}, run on {@code fresh} latencies under {@code freshCost}.
     * Sized plans are replayed as the runtime runs them ({@link HierarchicalPlan#replay}), candidates alike, so both
     * sides of a comparison come from one model.
     */
    private double completionMsOn(HierarchicalPlanner planner, LatencySnapshot planInputs, LatencySource fresh,
            CostModel freshCost) {
        double worst = 0;
        for (String root : referenceRoots) {
            HierarchicalPlan plan = planner.plan(hierarchy, planInputs, root, 0).orElseThrow();
            worst = Math.max(worst, freshCost.messageBytes() == 0 ? plan.predictedCompletionMsOn(fresh)
                    : replayedCompletionMs(plan, fresh, freshCost));
        }
        return worst;
    }

    private static double replayedCompletionMs(HierarchicalPlan plan, LatencySource latencies, CostModel cost) {
        return plan.replay(latencies, cost).values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }
}
