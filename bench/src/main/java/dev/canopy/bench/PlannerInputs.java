package dev.canopy.bench;

import dev.canopy.topology.internal.graph.LatencyCsvReader;
import dev.canopy.topology.internal.graph.LatencyGraph;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The latency graphs the planner benchmarks run on: the real PlanetLab matrix of that size from
 * {@code shared/latency/} when it is found above the working directory (64 nodes:
 * {@code planetlab490_first64.csv}), otherwise a {@link SyntheticWan} of one site per 20 nodes.
 */
final class PlannerInputs {

    private static final long SEED = 42;

    /** A graph and where it came from, for the run log. */
    record Input(String description, LatencyGraph graph) {
    }

    private PlannerInputs() {
    }

    static Input ofSize(int nodes) {
        Optional<Path> real = sharedFile("planetlab490_first" + nodes + ".csv");
        if (real.isPresent()) {
            return new Input(real.get().toString(), LatencyCsvReader.read(real.get()));
        }
        int sites = Math.max(1, nodes / 20);
        return new Input("synthetic WAN, seed " + SEED + ", " + sites + " sites",
                SyntheticWan.graph(SEED, nodes, sites));
    }

    private static Optional<Path> sharedFile(String name) {
        for (Path at = Path.of("").toAbsolutePath(); at != null; at = at.getParent()) {
            Path file = at.resolve("shared/latency").resolve(name);
            if (Files.isRegularFile(file)) {
                return Optional.of(file);
            }
        }
        return Optional.empty();
    }
}
