package dev.canopy.topology.tree;

import dev.canopy.topology.graph.LatencyMatrix;

/**
 * LogGP-style cost of a broadcast along a tree.
 *
 * <p>A send occupies the sender for {@code s = max(o + m * G, g)}: the per-send overhead {@code o}
 * plus the message's {@code m} bytes at {@code G} ms per byte, but never less than the gap {@code g}
 * between consecutive sends. A parent sends to its children one after the other in send order, so
 * its {@code k}-th child (1-based) arrives at
 *
 * <pre>    T(child_k) = T(parent) + k * s + L(parent, child_k),    T(root) = 0</pre>
 *
 * <p>which with {@code g = G = 0} is the issue's {@code parent arrival + k * overhead + latency},
 * and with {@code o = 0} too is the pure-latency model of the design note (flat: max L(r, i)). The
 * predicted completion is the latest arrival.
 *
 * @param overheadMs per-send overhead o
 * @param gapMs minimum time between two sends of one node, g
 * @param perByteMs time per byte, G (the inverse bandwidth)
 * @param messageBytes message size m; 0 when no size is given
 */
public record CostModel(double overheadMs, double gapMs, double perByteMs, long messageBytes) {

    /** Latency only: sends are free, so fan-out costs nothing. */
    public static final CostModel LATENCY_ONLY = new CostModel(0, 0, 0, 0);

    public CostModel {
        requireNonNegative(overheadMs, "overheadMs");
        requireNonNegative(gapMs, "gapMs");
        requireNonNegative(perByteMs, "perByteMs");
        if (messageBytes < 0) {
            throw new IllegalArgumentException("messageBytes must be >= 0, got " + messageBytes);
        }
    }

    private static void requireNonNegative(double value, String name) {
        if (!Double.isFinite(value) || value < 0) {
            throw new IllegalArgumentException(name + " must be a finite number >= 0, got " + value);
        }
    }

    /** The same parameters for another message size. */
    public CostModel withMessageBytes(long bytes) {
        return new CostModel(overheadMs, gapMs, perByteMs, bytes);
    }

    /** Time a sender is busy per send, {@code max(o + m * G, g)}. */
    public double sendCostMs() {
        return Math.max(overheadMs + messageBytes * perByteMs, gapMs);
    }

    /** Predicted arrival of every node and the completion, the root starting at time 0. */
    public Prediction predict(Tree tree, LatencyMatrix latencies) {
        return Prediction.of(tree.nodes(), arrivalsMs(tree, latencies, 0.0, 0));
    }

    /**
     * Arrival time of every node (by index); a tree edge over an unmeasured link gives positive
     * infinity below it.
     *
     * @param rootArrivalMs when the root got the message
     * @param rootPriorSends sends the root makes before this tree's (at coarser levels of a
     *     hierarchical plan), which delay its first send here
     */
    public double[] arrivalsMs(Tree tree, LatencyMatrix latencies, double rootArrivalMs, int rootPriorSends) {
        if (!tree.nodes().equals(latencies.nodes())) {
            throw new IllegalArgumentException("tree over " + tree.size() + " nodes does not match the latency matrix over "
                    + latencies.size() + " nodes (same node list required)");
        }
        double send = sendCostMs();
        int root = tree.rootIndex();
        double[] arrival = new double[tree.size()];
        arrival[root] = rootArrivalMs;
        for (int parent : tree.preorder()) {
            double ready = parent == root ? rootArrivalMs + rootPriorSends * send : arrival[parent];
            for (int k = 0; k < tree.childCount(parent); k++) {
                int child = tree.child(parent, k);
                arrival[child] = ready + (k + 1) * send + latencies.latency(parent, child);
            }
        }
        return arrival;
    }
}
