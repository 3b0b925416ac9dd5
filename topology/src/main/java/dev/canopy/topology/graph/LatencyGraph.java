package dev.canopy.topology.graph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jgrapht.Graph;
import org.jgrapht.graph.AsUnmodifiableGraph;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleDirectedWeightedGraph;

/**
 * The model: a JGraphT weighted directed graph whose vertices are node names and whose edge weights
 * are forecast one-way latencies in milliseconds.
 *
 * <p>One-way latency is half the round-trip time measured in that direction. Where both directions
 * of a pair are measured each keeps its own value; where only {@code a -> b} is measured, the round
 * trip it measured covers both directions, so {@code b -> a} gets the same value. A pair measured in
 * neither direction has no edge: trees never use it.
 */
public final class LatencyGraph implements LatencySource {

    private final Graph<String, DefaultWeightedEdge> graph;
    private final List<String> nodes;

    private LatencyGraph(Graph<String, DefaultWeightedEdge> graph, List<String> nodes) {
        this.graph = new AsUnmodifiableGraph<>(graph);
        this.nodes = List.copyOf(nodes);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The unmodifiable JGraphT graph (vertices: node names; weights: one-way latency in ms). */
    public Graph<String, DefaultWeightedEdge> graph() {
        return graph;
    }

    /** Node names in order of first appearance. */
    public List<String> nodes() {
        return nodes;
    }

    public boolean contains(String node) {
        return graph.containsVertex(node);
    }

    @Override
    public double oneWayMs(String from, String to) {
        DefaultWeightedEdge edge = graph.getEdge(from, to);
        return edge == null ? UNMEASURED : graph.getEdgeWeight(edge);
    }

    /** The dense view over all nodes, in {@link #nodes()} order. */
    public LatencyMatrix toMatrix() {
        int n = nodes.size();
        Map<String, Integer> index = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            index.put(nodes.get(i), i);
        }
        double[] values = new double[n * n];
        java.util.Arrays.fill(values, UNMEASURED);
        for (DefaultWeightedEdge edge : graph.edgeSet()) {
            int from = index.get(graph.getEdgeSource(edge));
            int to = index.get(graph.getEdgeTarget(edge));
            values[from * n + to] = graph.getEdgeWeight(edge);
        }
        return LatencyMatrix.ofRowMajor(nodes, values);
    }

    @Override
    public String toString() {
        return "LatencyGraph[" + nodes.size() + " nodes, " + graph.edgeSet().size() + " links]";
    }

    /** Collects measured round trips, then builds the graph once. Not thread-safe. */
    public static final class Builder {

        private final Set<String> nodes = new LinkedHashSet<>();
        private final Map<String, Map<String, Double>> rttByFromTo = new HashMap<>();

        private Builder() {
        }

        /** Declares a node, so that a node without any measured link is still part of the graph. */
        public Builder addNode(String node) {
            nodes.add(requireName(node));
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
            Double previous = rttByFromTo.computeIfAbsent(from, key -> new HashMap<>()).putIfAbsent(to, rttMs);
            if (previous != null) {
                throw new IllegalArgumentException("pair " + from + " -> " + to + " is measured twice");
            }
            nodes.add(from);
            nodes.add(to);
            return this;
        }

        /** True when {@code from -> to} was recorded. */
        public boolean hasRtt(String from, String to) {
            Map<String, Double> row = rttByFromTo.get(from);
            return row != null && row.containsKey(to);
        }

        public LatencyGraph build() {
            SimpleDirectedWeightedGraph<String, DefaultWeightedEdge> graph =
                    new SimpleDirectedWeightedGraph<>(DefaultWeightedEdge.class);
            nodes.forEach(graph::addVertex);
            List<String[]> mirrored = new ArrayList<>();
            rttByFromTo.forEach((from, row) -> row.forEach((to, rtt) -> {
                graph.setEdgeWeight(graph.addEdge(from, to), rtt / 2);
                if (!hasRtt(to, from)) {
                    mirrored.add(new String[] {to, from});
                }
            }));
            for (String[] pair : mirrored) {
                double rtt = rttByFromTo.get(pair[1]).get(pair[0]);
                graph.setEdgeWeight(graph.addEdge(pair[0], pair[1]), rtt / 2);
            }
            return new LatencyGraph(graph, new ArrayList<>(nodes));
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
