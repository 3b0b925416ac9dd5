package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.util.List;

/**
 * Builds every candidate tree and returns the one with the lowest predicted completion under the
 * given cost model, so the choice depends on the level's latencies and on the message size. Ties go
 * to the earlier candidate (the simpler tree). The returned tree is named after the chosen method.
 */
public final class AutoTreeBuilder implements TreeBuilder {

    private final List<TreeBuilder> candidates;

    /**
     * Chooses among flat, binomial, MST, HLOT, SPT, ECEF and the bandwidth-aware chain, binary and transfer-SPT
     * trees: with bandwidths and a message size in the model, thin uplinks favour fewer children and thin links
     * relays around them. Transfer-SPT comes last, so where it only ties (0 bytes) the earlier choice stays.
     */
    public AutoTreeBuilder() {
        this(List.of(new FlatTreeBuilder(), new BinomialTreeBuilder(), new MstTreeBuilder(), new HlotTreeBuilder(),
                new ShortestPathTreeBuilder(), new EarliestCompletingEdgeFirstTreeBuilder(),
                BoundedFanOutTreeBuilder.chain(), BoundedFanOutTreeBuilder.binary(), new TransferPathTreeBuilder()));
    }

    public AutoTreeBuilder(List<TreeBuilder> candidates) {
        if (candidates.isEmpty()) {
            throw new IllegalArgumentException("auto needs at least one candidate builder");
        }
        this.candidates = List.copyOf(candidates);
    }

    @Override
    public String name() {
        return "auto";
    }

    @Override
    public PlanningResult<Tree> build(LatencyMatrix latencies, int root, CostModel cost) {
        PlanningResult<Tree> best = null;
        double bestCompletion = Double.POSITIVE_INFINITY;
        PlanningResult<Tree> firstFailure = null;
        for (TreeBuilder candidate : candidates) {
            PlanningResult<Tree> result = candidate.build(latencies, root, cost);
            if (result instanceof PlanningResult.Planned<Tree> planned) {
                double completion = Prediction.completionMs(cost.arrivalsMs(planned.value(), latencies, 0, 0));
                if (best == null || completion < bestCompletion) {
                    best = result;
                    bestCompletion = completion;
                }
            } else if (firstFailure == null) {
                firstFailure = result;
            }
        }
        if (best != null) {
            return best;
        }
        // Name a node no path reaches rather than one a fixed-shape candidate (flat, binomial) missed.
        int unreachable = ShortestPaths.from(latencies, root).firstUnreachable();
        return unreachable >= 0 ? Reachability.noPath(latencies, root, unreachable) : firstFailure;
    }
}
