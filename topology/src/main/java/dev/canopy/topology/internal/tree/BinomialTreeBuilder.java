package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;

/**
 * MPICH's binomial tree over ranks in matrix order, renumbered so the root is rank 0: relative rank
 * r receives from {@code r - lowestOneBit(r)} and sends to {@code r + 2^k} for every
 * {@code 2^k < lowestOneBit(r)}, largest subtree first. Ignores latencies except that every tree link
 * must be measured.
 */
public final class BinomialTreeBuilder implements TreeBuilder {

    @Override
    public String name() {
        return "binomial";
    }

    @Override
    public PlanningResult<Tree> build(LatencyMatrix latencies, int root, CostModel cost) {
        int n = latencies.size();
        int[][] children = new int[n][];
        for (int relative = 0; relative < n; relative++) {
            int node = (relative + root) % n;
            int limit = relative == 0 ? Integer.highestOneBit(Math.max(1, n - 1)) << 1 : Integer.lowestOneBit(relative);
            int count = 0;
            for (int mask = limit >> 1; mask > 0; mask >>= 1) {
                if (relative + mask < n) {
                    count++;
                }
            }
            children[node] = new int[count];
            int k = 0;
            for (int mask = limit >> 1; mask > 0; mask >>= 1) {
                if (relative + mask < n) {
                    int child = (relative + mask + root) % n;
                    if (!latencies.linked(node, child)) {
                        return PlanningResult.unreachable(latencies.name(child), "the binomial tree needs the link '"
                                + latencies.name(node) + "' -> '" + latencies.name(child) + "', which was not measured");
                    }
                    children[node][k++] = child;
                }
            }
        }
        return PlanningResult.planned(new Tree(name(), latencies.nodes(), root, children));
    }
}
