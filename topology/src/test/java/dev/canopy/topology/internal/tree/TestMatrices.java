package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.util.ArrayList;
import java.util.List;

/** Latency matrices of the cost-model tests. */
final class TestMatrices {

    private TestMatrices() {
    }

    /** Every node its own site, all latencies {@code ms}. */
    static LatencyMatrix uniform(int n, double ms) {
        List<String> names = new ArrayList<>();
        double[] values = new double[n * n];
        for (int a = 0; a < n; a++) {
            names.add("s" + a);
            for (int b = 0; b < n; b++) {
                values[a * n + b] = a == b ? 0 : ms;
            }
        }
        return LatencyMatrix.ofRowMajor(names, values);
    }
}
