package dev.canopy.topology.internal;

import dev.canopy.topology.internal.graph.LatencyMatrix;
import dev.canopy.topology.internal.graph.LatencySource;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jgrapht.Graph;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleDirectedWeightedGraph;

/** Seeded random latency matrices for property tests: WAN-like values, optional holes and asymmetry. */
public final class RandomLatencies {

    public enum Symmetry { SYMMETRIC, ASYMMETRIC }

    private RandomLatencies() {
    }

    /**
     * @param missingFraction share of unordered pairs measured in neither direction
     */
    public static LatencyMatrix matrix(long seed, int n, double missingFraction, Symmetry symmetry) {
        Random random = new Random(seed);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add("n" + i);
        }
        double[] values = new double[n * n];
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                boolean missing = random.nextDouble() < missingFraction;
                // a mix of near (cluster), medium (continent) and far (intercontinental) links
                double base = switch (random.nextInt(3)) {
                    case 0 -> 0.05 + random.nextDouble();
                    case 1 -> 5 + 30 * random.nextDouble();
                    default -> 60 + 250 * random.nextDouble();
                };
                double back = symmetry == Symmetry.SYMMETRIC ? base : base * (0.8 + 0.4 * random.nextDouble());
                values[a * n + b] = missing ? LatencySource.UNMEASURED : base;
                values[b * n + a] = missing ? LatencySource.UNMEASURED : back;
            }
        }
        return LatencyMatrix.ofRowMajor(names, values);
    }

    /** The same latencies as a JGraphT graph, for differential tests against JGraphT's algorithms. */
    public static Graph<String, DefaultWeightedEdge> toJGraphT(LatencyMatrix matrix) {
        SimpleDirectedWeightedGraph<String, DefaultWeightedEdge> graph = new SimpleDirectedWeightedGraph<>(DefaultWeightedEdge.class);
        matrix.nodes().forEach(graph::addVertex);
        for (int a = 0; a < matrix.size(); a++) {
            for (int b = 0; b < matrix.size(); b++) {
                if (a != b && matrix.linked(a, b)) {
                    graph.setEdgeWeight(graph.addEdge(matrix.name(a), matrix.name(b)), matrix.latency(a, b));
                }
            }
        }
        return graph;
    }
}
