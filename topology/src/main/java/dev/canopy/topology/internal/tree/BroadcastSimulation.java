package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.BandwidthSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Replays a pipelined broadcast the way the runtime and the WAN emulation carry it, send by send in
 * time order. The root cuts the message into segments ({@link CostModel#segments()}); every node
 * forwards each segment to its children in send order as soon as it has it, segment by segment.
 * A send occupies its sender for {@code max(o + len * G, g)}; a send to another host then queues for
 * the sender's host NIC (shared by all nodes of the host) for {@code len / nic}; a send to another
 * site then queues for the sender's site uplink (first come, first served, shared by all nodes of the site) for
 * {@code len / uplink}, streams on to the directed site link, which it holds for {@code len / link}
 * queued behind earlier messages and finishing no earlier than it left the uplink, and arrives one
 * latency later. A node has the message when its last segment arrived. With {@link CostModel#flow()}, a
 * segment's bytes leave only when the edge's credit window or the receiver's request for a rendezvous body
 * lets them ({@link FlowReplay}); a message the flow control cannot limit skips that bookkeeping.
 *
 * <p>Cost: O(E·S·log n) for E tree edges and S segments.
 */
public final class BroadcastSimulation {

    /** One-way latency of a tree edge. */
    @FunctionalInterface
    public interface EdgeLatency {
        double ms(int parent, int child);
    }

    private final int[][] children;
    /** The latency of every tree edge, by parent and child position: looked up once, not once per segment. */
    private final double[][] edgeLatency;
    /** The latency back from child to parent of every tree edge (credit grants, body requests); null without flow control. */
    private final double[][] backLatency;
    /** The edges' flow control; null where it cannot limit this message (every piece eager within the window). */
    private final FlowReplay flows;
    private final CostModel cost;
    private final int[] site;
    private final int[] host;
    private final double[] nicMsPerByte;
    private final double[] nicFree;
    private final double[] uplinkMsPerByte;
    private final double[][] linkMsPerByte;
    private final double[] uplinkFree;
    private final double[][] linkFree;
    private final long segmentBytes;
    private final int segments;

    private BroadcastSimulation(List<String> nodes, int root, int[][] children, EdgeLatency latency, CostModel cost) {
        this.children = children;
        this.edgeLatency = new double[children.length][];
        for (int v = 0; v < children.length; v++) {
            edgeLatency[v] = new double[children[v].length];
            for (int k = 0; k < children[v].length; k++) {
                edgeLatency[v][k] = latency.ms(v, children[v][k]);
            }
        }
        this.cost = cost;
        BandwidthSource bandwidths = cost.bandwidths();
        List<String> siteNames = new ArrayList<>();
        this.site = indexOf(nodes, bandwidths::siteOf, siteNames);
        this.uplinkMsPerByte = new double[siteNames.size()];
        this.linkMsPerByte = new double[siteNames.size()][];
        for (int s = 0; s < siteNames.size(); s++) {
            uplinkMsPerByte[s] = msPerByte(bandwidths.uplinkMbps(siteNames.get(s)));
            linkMsPerByte[s] = new double[siteNames.size()];
            for (int t = 0; t < siteNames.size(); t++) {
                linkMsPerByte[s][t] = s == t ? 0 : msPerByte(bandwidths.linkMbps(siteNames.get(s), siteNames.get(t)));
            }
        }
        this.uplinkFree = new double[siteNames.size()];
        this.linkFree = new double[siteNames.size()][siteNames.size()];
        List<String> hostNames = new ArrayList<>();
        this.host = indexOf(nodes, bandwidths::hostOf, hostNames);
        this.nicMsPerByte = hostNames.stream().mapToDouble(name -> msPerByte(bandwidths.nicMbps(name))).toArray();
        this.nicFree = new double[hostNames.size()];
        long bytes = cost.messageBytes();
        this.segmentBytes = Math.max(1, cost.segments().segmentBytes(bytes, depth(children, root)));
        this.segments = (int) Math.max(1, (bytes + segmentBytes - 1) / segmentBytes);
        FlowControl flow = cost.flow();
        if (flow.neverLimits(bytes, segmentBytes, segments)) {
            this.flows = null;
            this.backLatency = null;
        } else {
            this.flows = new FlowReplay(flow, children.length);
            this.backLatency = new double[children.length][];
            for (int v = 0; v < children.length; v++) {
                backLatency[v] = new double[children[v].length];
                for (int k = 0; k < children[v].length; k++) {
                    double back = latency.ms(children[v][k], v);
                    backLatency[v][k] = Double.isFinite(back) ? back : edgeLatency[v][k]; // one-way links: assume symmetric
                }
            }
        }
    }

    /** Each node's index among the distinct {@code keys} of all nodes, which are added to {@code names} in order of first use. */
    private static int[] indexOf(List<String> nodes, Function<String, String> keys, List<String> names) {
        Map<String, Integer> index = new HashMap<>();
        int[] indices = new int[nodes.size()];
        for (int v = 0; v < nodes.size(); v++) {
            indices[v] = index.computeIfAbsent(keys.apply(nodes.get(v)), key -> {
                names.add(key);
                return names.size() - 1;
            });
        }
        return indices;
    }

    /**
     * Arrival time of every node (by index) of a broadcast down {@code children} from {@code root}.
     *
     * @param nodes node names, for their sites
     * @param children each node's children in send order
     * @param rootArrivalMs when the root has the whole message
     * @param rootFreeAtMs when the root can start sending (later when it first sends elsewhere)
     */
    public static double[] arrivalsMs(List<String> nodes, int root, int[][] children, EdgeLatency latency,
            CostModel cost, double rootArrivalMs, double rootFreeAtMs) {
        return new BroadcastSimulation(nodes, root, children, latency, cost).run(root, rootArrivalMs, rootFreeAtMs);
    }

    private double[] run(int root, double rootArrivalMs, double rootFreeAtMs) {
        int n = children.length;
        double[][] arrived = new double[n][];
        double[] cpuFree = new double[n];
        int[] nextSend = new int[n];
        arrived[root] = new double[segments];
        Arrays.fill(arrived[root], rootArrivalMs);
        cpuFree[root] = Math.max(rootArrivalMs, rootFreeAtMs);
        // a node is queued at most once: when its next segment is there, or when that segment arrives
        NodeHeap queue = new NodeHeap(n);
        if (children[root].length > 0) {
            queue.add(root, nextHandedMs(root, arrived, cpuFree, nextSend));
        }
        while (!queue.isEmpty()) {
            int v = queue.poll();
            int kids = children[v].length;
            int segment = nextSend[v] / kids;
            int position = nextSend[v] % kids;
            int child = children[v][position];
            long length = length(segment);
            double handed = Math.max(cpuFree[v], arrived[v][segment]) + sendCostMs(length);
            cpuFree[v] = handed;
            nextSend[v]++;
            if (arrived[child] == null) {
                arrived[child] = new double[segments];
                Arrays.fill(arrived[child], Double.NaN);
            }
            arrived[child][segment] = arrivalMs(v, position, child, arrived[v][segment], handed, length);
            if (nextSend[v] < kids * segments && !Double.isNaN(arrived[v][nextSend[v] / kids])) {
                queue.add(v, nextHandedMs(v, arrived, cpuFree, nextSend));
            }
            if (children[child].length > 0 && nextSend[child] == segment * children[child].length) {
                queue.add(child, nextHandedMs(child, arrived, cpuFree, nextSend));
            }
        }
        double[] arrival = new double[n];
        for (int v = 0; v < n; v++) {
            arrival[v] = arrived[v] == null ? Double.POSITIVE_INFINITY : arrived[v][segments - 1];
        }
        arrival[root] = rootArrivalMs;
        waitForSharedCores(arrival, root, rootArrivalMs);
        return arrival;
    }

    /**
     * With every process on one machine ({@link CostModel#sharedCores()}), the last node cannot have the message
     * before the machine's cores did every send and every receive: each receive's work taken as its send's
     * ({@code max(o + len * G, g)}: the receiver reads, checks and copies what the sender wrote), the sum spread
     * over the cores.
     */
    private void waitForSharedCores(double[] arrival, int root, double rootArrivalMs) {
        if (cost.sharedCores() == 0) {
            return;
        }
        double messageMs = 0;
        for (int segment = 0; segment < segments; segment++) {
            messageMs += sendCostMs(length(segment));
        }
        long edges = Arrays.stream(children).mapToLong(kids -> kids.length).sum();
        double workMs = 2 * edges * messageMs;
        int last = root;
        for (int v = 0; v < arrival.length; v++) {
            if (Double.isFinite(arrival[v]) && arrival[v] > arrival[last]) {
                last = v;
            }
        }
        arrival[last] = Math.max(arrival[last], rootArrivalMs + workMs / cost.sharedCores());
    }

    /**
     * When {@code child} has a segment of {@code length} bytes its parent {@code v} handed over at {@code handedMs}:
     * over the wire and one latency; with flow control, as chunks submitted together when {@code v} had the
     * segment ({@code submittedMs}), each leaving when its stream's credit or the receiver's request lets it.
     */
    private double arrivalMs(int v, int position, int child, double submittedMs, double handedMs, long length) {
        double latency = edgeLatency[v][position];
        if (flows == null) {
            return wireEndMs(v, child, handedMs, length) + latency;
        }
        double back = backLatency[v][position];
        long chunk = cost.flow().chunkBytes();
        double arrival = handedMs;
        long sent = 0;
        do {
            long piece = Math.min(chunk, length - sent);
            double departure = flows.departureMs(child, piece, submittedMs, handedMs, latency, back);
            arrival = flows.arrived(child, wireEndMs(v, child, departure, piece) + latency, back);
            sent += piece;
        } while (sent < length);
        return arrival;
    }

    /** When {@code v}'s next send will have been handed over. */
    private double nextHandedMs(int v, double[][] arrived, double[] cpuFree, int[] nextSend) {
        int segment = nextSend[v] / children[v].length;
        return Math.max(cpuFree[v], arrived[v][segment]) + sendCostMs(length(segment));
    }

    private long length(int segment) {
        return Math.max(0, Math.min(segmentBytes, cost.messageBytes() - segment * segmentBytes));
    }

    private double sendCostMs(long length) {
        return Math.max(cost.overheadMs() + length * cost.perByteMs(), cost.gapMs());
    }

    /**
     * When the last bit of a message handed over at {@code handedMs} has left the sender's host (its NIC)
     * and, to another site, the sender's site (its uplink, then the site link). Each stage starts no earlier
     * than the one before it started and ends no earlier than it ended: the bytes stream through.
     */
    private double wireEndMs(int from, int to, double handedMs, long length) {
        double start = handedMs;
        double end = handedMs;
        int h = host[from];
        if (h != host[to] && nicMsPerByte[h] > 0) {
            start = Math.max(handedMs, nicFree[h]);
            end = start + length * nicMsPerByte[h];
            nicFree[h] = end;
        }
        int s = site[from];
        int t = site[to];
        if (s == t) {
            return end;
        }
        if (uplinkMsPerByte[s] > 0) {
            start = Math.max(start, uplinkFree[s]);
            end = Math.max(start + length * uplinkMsPerByte[s], end);
            uplinkFree[s] = end;
        }
        if (linkMsPerByte[s][t] == 0) {
            return end;
        }
        double linkStart = Math.max(start, linkFree[s][t]);
        double linkEnd = Math.max(linkStart + length * linkMsPerByte[s][t], end);
        linkFree[s][t] = linkEnd;
        return linkEnd;
    }

    /** Milliseconds per byte at {@code mbps} 10^6 bit/s; 0 when unlimited. */
    static double msPerByte(double mbps) {
        return Double.isInfinite(mbps) ? 0 : 8.0 / (mbps * 1000.0);
    }

    /** Hops from the root to its deepest descendant. */
    static int depth(int[][] children, int root) {
        int[] level = new int[children.length];
        ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(root));
        int depth = 0;
        while (!queue.isEmpty()) {
            int v = queue.poll();
            depth = Math.max(depth, level[v]);
            for (int child : children[v]) {
                level[child] = level[v] + 1;
                queue.add(child);
            }
        }
        return depth;
    }
}
