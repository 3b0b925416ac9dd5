package dev.canopy.topology.internal.graph;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jgrapht.Graph;
import org.jgrapht.graph.AsUnmodifiableGraph;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleDirectedWeightedGraph;

/**
 * The model: a weighted directed graph whose vertices are node names and whose edge weights are
 * forecast one-way latencies in milliseconds, presented as a JGraphT graph by {@link #graph()}.
 *
 * <p>One-way latency is half the round-trip time measured in that direction. Where both directions
 * of a pair are measured each keeps its own value; where only {@code a -> b} is measured, the round
 * trip it measured covers both directions, so {@code b -> a} gets the same value. A pair measured in
 * neither direction has no edge: trees never use it.
 *
 * <p>Links are held in a compact index; the JGraphT graph is built on first use, because JGraphT's
 * edge index costs seconds for a million links, while the tree algorithms run on the dense
 * {@link #toMatrix()} view anyway. Immutable and thread-safe.
 */
public final class LatencyGraph implements LatencySource {

    /** The most nodes {@link #toMatrix()} puts in a dense matrix: 10,000 nodes take 800 MB. */
    public static final int MAX_DENSE_NODES = 10_000;

    private final List<String> nodes;
    private final Map<String, Integer> indexOf;
    private final LinkTable oneWay;
    private Graph<String, DefaultWeightedEdge> graph;

    private LatencyGraph(List<String> nodes, Map<String, Integer> indexOf, LinkTable oneWay) {
        this.nodes = List.copyOf(nodes);
        this.indexOf = indexOf;
        this.oneWay = oneWay;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The unmodifiable JGraphT graph (vertices: node names; weights: one-way latency in ms), built once. */
    public synchronized Graph<String, DefaultWeightedEdge> graph() {
        if (graph == null) {
            SimpleDirectedWeightedGraph<String, DefaultWeightedEdge> built = new SimpleDirectedWeightedGraph<>(DefaultWeightedEdge.class);
            nodes.forEach(built::addVertex);
            oneWay.forEach((from, to, ms) -> built.setEdgeWeight(built.addEdge(nodes.get(from), nodes.get(to)), ms));
            graph = new AsUnmodifiableGraph<>(built);
        }
        return graph;
    }

    /** Node names in order of first appearance. */
    public List<String> nodes() {
        return nodes;
    }

    public boolean contains(String node) {
        return indexOf.containsKey(node);
    }

    /** Number of directed links with a latency (measured or mirrored). */
    public int linkCount() {
        return oneWay.size();
    }

    @Override
    public double oneWayMs(String from, String to) {
        Integer a = indexOf.get(from);
        Integer b = indexOf.get(to);
        double ms = a == null || b == null ? Double.NaN : oneWay.get(a, b);
        return Double.isNaN(ms) ? UNMEASURED : ms;
    }

    /**
     * The dense view over all nodes, in {@link #nodes()} order: one {@code n * n} array, built once
     * per call and handed to the matrix without a copy.
     *
     * @throws IllegalArgumentException when there are more than {@link #MAX_DENSE_NODES} nodes
     */
    public LatencyMatrix toMatrix() {
        int n = nodes.size();
        if (n > MAX_DENSE_NODES) {
            throw new IllegalArgumentException(n + " nodes are too many for a dense latency matrix (at most " + MAX_DENSE_NODES
                    + ", which take " + (8L * MAX_DENSE_NODES * MAX_DENSE_NODES >> 20) + " MiB); plan them hierarchically,"
                    + " one smaller matrix per group");
        }
        double[] values = new double[n * n];
        Arrays.fill(values, UNMEASURED);
        for (int i = 0; i < n; i++) {
            values[i * n + i] = 0.0;
        }
        oneWay.forEach((from, to, ms) -> values[from * n + to] = ms);
        return LatencyMatrix.adopt(nodes, values);
    }

    /** Bytes the dense view of {@code nodes} nodes takes. */
    public static long denseBytes(int nodes) {
        return 8L * nodes * nodes;
    }

    @Override
    public String toString() {
        return "LatencyGraph[" + nodes.size() + " nodes, " + oneWay.size() + " links]";
    }

    /** Collects measured round trips, then builds the graph once. Not thread-safe. */
    public static final class Builder {

        private final Map<String, Integer> indexOf = new LinkedHashMap<>();
        private final LinkTable rtt = new LinkTable();

        private Builder() {
        }

        /** Declares a node, so that a node without any measured link is still part of the graph. */
        public Builder addNode(String node) {
            index(requireName(node));
            return this;
        }

        /**
         * Records the round-trip time measured from {@code from} to {@code to}.
         *
         * @throws IllegalArgumentException for a self pair, a negative or non-finite RTT, or a pair
         *     recorded twice
         */
        public Builder addRtt(String from, String to, double rttMs) {
            requireName(from);
            requireName(to);
            if (from.equals(to)) {
                throw new IllegalArgumentException("self pair " + from + " -> " + to + "; a node has no link to itself");
            }
            if (!Double.isFinite(rttMs) || rttMs < 0) {
                throw new IllegalArgumentException("RTT " + from + " -> " + to + " is " + rttMs
                        + " ms; expected a finite non-negative number");
            }
            if (!rtt.putIfAbsent(index(from), index(to), rttMs)) {
                throw new IllegalArgumentException("pair " + from + " -> " + to + " is measured twice");
            }
            return this;
        }

        /** Whether {@code node} was declared or named in a recorded pair. */
        public boolean contains(String node) {
            return indexOf.containsKey(node);
        }

        /** The number of distinct nodes so far. */
        public int nodeCount() {
            return indexOf.size();
        }

        /** True when {@code from -> to} was recorded. */
        public boolean hasRtt(String from, String to) {
            Integer a = indexOf.get(from);
            Integer b = indexOf.get(to);
            return a != null && b != null && !Double.isNaN(rtt.get(a, b));
        }

        public LatencyGraph build() {
            LinkTable oneWay = new LinkTable();
            rtt.forEach((from, to, ms) -> oneWay.put(from, to, ms / 2));
            rtt.forEach((from, to, ms) -> oneWay.putIfAbsent(to, from, ms / 2)); // mirror only where unmeasured
            return new LatencyGraph(new ArrayList<>(indexOf.keySet()), new HashMap<>(indexOf), oneWay);
        }

        private int index(String node) {
            return indexOf.computeIfAbsent(node, key -> indexOf.size());
        }

        private static String requireName(String node) {
            Objects.requireNonNull(node, "node");
            if (node.isEmpty()) {
                throw new IllegalArgumentException("node names must not be empty");
            }
            return node;
        }
    }
}
