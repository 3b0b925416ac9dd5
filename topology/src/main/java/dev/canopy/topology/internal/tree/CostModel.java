package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.BandwidthSource;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.util.Objects;

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
 * <p>With {@link #bandwidths()} or pipelining ({@link #segments()}) given, the prediction replays the
 * broadcast as the runtime carries it ({@link BroadcastSimulation}): segments forwarded as they
 * arrive, and every message to another site queued for its sender's site uplink, shared by all
 * the site's sends, and for the site-to-site link. So a node's {@code k} children in other sites
 * over one uplink of bandwidth {@code B} take about {@code k * m / B}, not {@code m / B}. With
 * {@link #flow()} given too, every tree edge's stream is held to the runtime's credit window, rendezvous
 * round trips and chunks ({@link FlowControl}): a large message over a WAN link is bound by the window.
 * With {@link #sharedCores()} given, all processes run on one machine of that many cores, so the broadcast
 * completes no earlier than all its sends' and receives' work divided by the cores.
 *
 * @param overheadMs per-send overhead o
 * @param gapMs minimum time between two sends of one node, g
 * @param perByteMs time per byte, G (the inverse bandwidth)
 * @param messageBytes message size m; 0 when no size is given
 * @param bandwidths site uplinks and site-to-site links; {@link BandwidthSource#UNLIMITED} for none
 * @param segments how the runtime pipelines the message; {@link SegmentPolicy#WHOLE_MESSAGE} for not at all
 * @param flow the runtime's flow control on every edge; {@link FlowControl#UNLIMITED} for none
 * @param sharedCores the cores of the one machine every process runs on (an emulated grid in one JVM); 0 when each
 *     process has a CPU of its own
 */
public record CostModel(double overheadMs, double gapMs, double perByteMs, long messageBytes,
        BandwidthSource bandwidths, SegmentPolicy segments, FlowControl flow, int sharedCores) {

    /** Latency only: sends are free, so fan-out costs nothing. */
    public static final CostModel LATENCY_ONLY = new CostModel(0, 0, 0, 0);

    /** LogGP parameters alone: no bandwidth limits, no pipelining. */
    public CostModel(double overheadMs, double gapMs, double perByteMs, long messageBytes) {
        this(overheadMs, gapMs, perByteMs, messageBytes, BandwidthSource.UNLIMITED, SegmentPolicy.WHOLE_MESSAGE,
                FlowControl.UNLIMITED, 0);
    }

    public CostModel {
        requireNonNegative(overheadMs, "overheadMs");
        requireNonNegative(gapMs, "gapMs");
        requireNonNegative(perByteMs, "perByteMs");
        if (messageBytes < 0) {
            throw new IllegalArgumentException("messageBytes must be >= 0, got " + messageBytes);
        }
        Objects.requireNonNull(bandwidths, "bandwidths");
        Objects.requireNonNull(segments, "segments");
        Objects.requireNonNull(flow, "flow");
        if (sharedCores < 0) {
            throw new IllegalArgumentException("sharedCores must be >= 0 (0: every process its own CPU), got " + sharedCores);
        }
    }

    private static void requireNonNegative(double value, String name) {
        if (!Double.isFinite(value) || value < 0) {
            throw new IllegalArgumentException(name + " must be a finite number >= 0, got " + value);
        }
    }

    /** The same parameters for another message size. */
    public CostModel withMessageBytes(long bytes) {
        return new CostModel(overheadMs, gapMs, perByteMs, bytes, bandwidths, segments, flow, sharedCores);
    }

    /** The same model with site uplinks and links limiting the transfers. */
    public CostModel withBandwidths(BandwidthSource newBandwidths) {
        return new CostModel(overheadMs, gapMs, perByteMs, messageBytes, newBandwidths, segments, flow, sharedCores);
    }

    /** The same model with the runtime's pipelining. */
    public CostModel withSegments(SegmentPolicy newSegments) {
        return new CostModel(overheadMs, gapMs, perByteMs, messageBytes, bandwidths, newSegments, flow, sharedCores);
    }

    /** The same model with the runtime's flow control on every edge. */
    public CostModel withFlow(FlowControl newFlow) {
        return new CostModel(overheadMs, gapMs, perByteMs, messageBytes, bandwidths, segments, newFlow, sharedCores);
    }

    /** The same model with every process on one machine of {@code cores} cores (0: each its own CPU). */
    public CostModel withSharedCores(int cores) {
        return new CostModel(overheadMs, gapMs, perByteMs, messageBytes, bandwidths, segments, flow, cores);
    }

    /**
     * Whether predictions replay the broadcast send by send ({@link BroadcastSimulation}) rather
     * than by the closed form: when bandwidths limit transfers, the message is pipelined, flow control applies or
     * the processes share a machine's cores.
     */
    public boolean simulates() {
        return bandwidths != BandwidthSource.UNLIMITED || segments != SegmentPolicy.WHOLE_MESSAGE
                || !flow.equals(FlowControl.UNLIMITED) || sharedCores > 0;
    }

    /** Time a sender is busy per send, {@code max(o + m * G, g)}. */
    public double sendCostMs() {
        return Math.max(overheadMs + messageBytes * perByteMs, gapMs);
    }

    /**
     * The time the message's bytes take to cross from node {@code from} to node {@code to} beyond the latency, with
     * nothing else on the wire: its size at the slowest stage it crosses (the sender's host NIC towards another host;
     * its site's uplink and the site link towards another site; the stages stream, so the slowest sets the pace).
     * 0 inside a host, without bandwidths, or for 0 bytes. Relay routes weigh a hop with it.
     */
    public double transferMs(String from, String to) {
        double msPerByte = 0;
        if (!bandwidths.hostOf(from).equals(bandwidths.hostOf(to))) {
            msPerByte = BroadcastSimulation.msPerByte(bandwidths.nicMbps(bandwidths.hostOf(from)));
        }
        String fromSite = bandwidths.siteOf(from);
        String toSite = bandwidths.siteOf(to);
        if (!fromSite.equals(toSite)) {
            msPerByte = Math.max(msPerByte, Math.max(BroadcastSimulation.msPerByte(bandwidths.uplinkMbps(fromSite)),
                    BroadcastSimulation.msPerByte(bandwidths.linkMbps(fromSite, toSite))));
        }
        return messageBytes * msPerByte;
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
        if (simulates()) {
            int[][] children = new int[tree.size()][];
            for (int v = 0; v < tree.size(); v++) {
                children[v] = new int[tree.childCount(v)];
                for (int k = 0; k < children[v].length; k++) {
                    children[v][k] = tree.child(v, k);
                }
            }
            return BroadcastSimulation.arrivalsMs(tree.nodes(), root, children, latencies::latency, this, rootArrivalMs,
                    rootArrivalMs + rootPriorSends * send);
        }
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
