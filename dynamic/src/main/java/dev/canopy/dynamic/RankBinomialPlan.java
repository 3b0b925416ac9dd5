package dev.canopy.dynamic;

import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.engine.RootedTree;
import dev.canopy.collectives.plan.CollectivePlan;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.core.comm.Communicator;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import dev.canopy.topology.internal.tree.BinomialTreeBuilder;
import dev.canopy.topology.internal.tree.Tree;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The intra-group phase of {@link InterPhase#FLAT}: the seed's flat baseline, a group that knows nothing of its
 * sites. Every root's tree is MPICH's binomial tree over the group's ranks ({@link BinomialTreeBuilder}), blind to
 * where the ranks are, as an MPI intra-communicator's default bcast, gather and reduce; the collectives engine still
 * pipelines large messages down it, exactly as it does down the topology plan's trees, so the two phases differ
 * only in what they know of the grid. Latencies ({@link #oneWayMs}) are the group plan's: the inter-communicator
 * collectives use none of the operations that route by them (alltoall, scan).
 */
final class RankBinomialPlan implements CollectivePlan {

    private final CollectivePlan groupPlan;
    private final LatencyMatrix ranks;
    private final long epoch;
    private final Map<Integer, RootedTree> trees = new HashMap<>();

    RankBinomialPlan(CollectivePlan groupPlan, int size, long epoch) {
        this.groupPlan = groupPlan;
        List<String> names = IntStream.range(0, size).mapToObj(Integer::toString).toList();
        // Every pair counts as linked (0 ms): the binomial builder reads nothing else.
        this.ranks = LatencyMatrix.ofRowMajor(names, new double[size * size]);
        this.epoch = epoch;
    }

    /** {@code group}'s collectives (same communicator and sequence) on binomial trees over ranks. */
    static Collectives over(Collectives group) {
        Communicator communicator = group.communicator();
        long epoch = ("rank-binomial/" + group.plan().epoch()).hashCode() & Long.MAX_VALUE;
        return group.withPlan(new RankBinomialPlan(group.plan(), communicator.size(), epoch));
    }

    @Override
    public long epoch() {
        return epoch;
    }

    /** Computed on first use per root (a few microseconds: no planning to move off the event loop). */
    @Override
    public RootedTree tree(int root) {
        return trees.computeIfAbsent(root, this::binomial);
    }

    @Override
    public double oneWayMs(int from, int to) {
        return groupPlan.oneWayMs(from, to);
    }

    private RootedTree binomial(int root) {
        Tree tree = new BinomialTreeBuilder().build(ranks, root, ConfiguredPlans.COST).orElseThrow();
        List<List<Integer>> children = new ArrayList<>(tree.size());
        for (int rank = 0; rank < tree.size(); rank++) {
            children.add(Arrays.stream(tree.childIndices(rank)).boxed().toList());
        }
        return RootedTree.fromChildren(root, children);
    }
}
