package dev.canopy.cli.topology;

import dev.canopy.gridconfig.Excerpt;
import dev.canopy.topology.internal.graph.LatencyCsvReader;
import dev.canopy.topology.internal.graph.LatencyGraph;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.nio.file.Path;

/**
 * A latency CSV loaded for a command: the sparse graph as read, and the dense view the tree algorithms
 * need, built once (at most {@link LatencyGraph#MAX_DENSE_NODES} nodes, and only when it fits the heap).
 */
record LatencyInput(Path file, LatencyGraph graph, LatencyMatrix matrix) {

    /** The share of the heap one dense matrix may take; the algorithms need some room beside it. */
    private static final double HEAP_SHARE = 0.75;

    /** @throws IllegalArgumentException naming the file and line when the CSV is malformed or too large */
    static LatencyInput load(Path file) {
        LatencyGraph graph = LatencyCsvReader.read(file);
        if (graph.nodes().isEmpty()) {
            throw new IllegalArgumentException(file + ": no rows after the header; add one line per measured pair");
        }
        if (graph.nodes().size() <= LatencyGraph.MAX_DENSE_NODES) { // beyond it toMatrix refuses: more heap would not help
            requireHeapFor(file, graph.nodes().size(), Runtime.getRuntime().maxMemory());
        }
        return new LatencyInput(file, graph, graph.toMatrix());
    }

    /** Refuses, with the fix, a dense matrix that would run this JVM out of memory. */
    static void requireHeapFor(Path file, int nodes, long maxHeapBytes) {
        long needed = LatencyGraph.denseBytes(nodes);
        if (needed > HEAP_SHARE * maxHeapBytes) {
            long suggestedMiB = (long) Math.ceil(needed / HEAP_SHARE / (1 << 20) / 256) * 256;
            throw new IllegalArgumentException(file + ": " + nodes + " nodes need a dense latency matrix of " + (needed >> 20)
                    + " MiB, more than this JVM's heap of " + (maxHeapBytes >> 20) + " MiB allows; run with more heap"
                    + " (CANOPY_JAVA_OPTS=-Xmx" + suggestedMiB + "m) or plan fewer nodes");
        }
    }

    /** @throws IllegalArgumentException when {@code root} is not a node of the file */
    int rootIndex(String root) {
        int index = matrix.indexOf(root);
        if (index < 0) {
            throw new IllegalArgumentException("unknown root '" + Excerpt.of(root) + "': not a node of "
                    + file + " (" + matrix.size() + " nodes, e.g. '" + Excerpt.of(matrix.name(0)) + "')");
        }
        return index;
    }
}
