package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;

/**
 * Builds a broadcast tree rooted at one node over all nodes of a latency matrix, using only measured
 * links. Implementations are stateless and thread-safe; each is named after its method.
 */
public interface TreeBuilder {

    /** The algorithm's name as used on the command line and in level files, e.g. {@code hlot}. */
    String name();

    /**
     * @param latencies one-way latencies; unmeasured links are never used
     * @param root index of the node that holds the message
     * @param cost the cost model; builders that ignore per-send costs still use it to order sends
     * @return the tree, or the first node that measured links cannot reach
     */
    PlanningResult<Tree> build(LatencyMatrix latencies, int root, CostModel cost);
}
