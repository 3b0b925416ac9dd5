package dev.canopy.cli.topology;

import dev.canopy.topology.graph.LatencyCsvReader;
import dev.canopy.topology.graph.LatencyGraph;
import dev.canopy.topology.graph.LatencyMatrix;
import java.nio.file.Path;

/** A latency CSV loaded for a command: the graph, its dense view and the root's index. */
record LatencyInput(Path file, LatencyGraph graph, LatencyMatrix matrix) {

    /** @throws IllegalArgumentException naming the file and line when the CSV is malformed */
    static LatencyInput load(Path file) {
        LatencyGraph graph = LatencyCsvReader.read(file);
        if (graph.nodes().isEmpty()) {
            throw new IllegalArgumentException(file + ": no rows after the header; add one line per measured pair");
        }
        return new LatencyInput(file, graph, graph.toMatrix());
    }

    /** @throws IllegalArgumentException when {@code root} is not a node of the file */
    int rootIndex(String root) {
        int index = matrix.indexOf(root);
        if (index < 0) {
            throw new IllegalArgumentException("unknown root '" + root + "': not a node of " + file + " ("
                    + matrix.size() + " nodes, e.g. '" + matrix.name(0) + "')");
        }
        return index;
    }
}
