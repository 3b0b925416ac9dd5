package dev.canopy.cli.topology;

import dev.canopy.gridconfig.Coordinates;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import dev.canopy.topology.internal.hierarchy.Hierarchy;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.hierarchy.LevelThresholds;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where a command's levels come from: the level file's coordinates when {@code --config} names the
 * latency nodes ({@link LevelFileNodes}), else derived from RTTs with the file's thresholds or the
 * defaults; with the level file's algorithms, or MPICH-GX's without one.
 */
record LevelSource(Hierarchy hierarchy, LevelThresholds thresholds, LevelAlgorithms algorithms, Origin origin) {

    /** Whether the levels were read from the level file or derived from RTTs. */
    enum Origin {
        CONFIG, DERIVED;

        String jsonName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** @param config the level file, or null */
    static LevelSource of(Path config, LatencyMatrix latencies) {
        if (config == null) {
            return new LevelSource(Hierarchy.derive(latencies, LevelThresholds.DEFAULTS), LevelThresholds.DEFAULTS,
                    LevelAlgorithms.mpichGx(), Origin.DERIVED);
        }
        LevelFileNodes levelFile = LevelFileNodes.load(config);
        LevelThresholds thresholds = LevelThresholds.from(levelFile.model().thresholds());
        LevelAlgorithms algorithms = LevelAlgorithms.fromLevelFile(levelFile.model().levels());
        Map<String, Coordinates> configured = levelFile.coordinatesOf(latencies.nodes());
        return configured.isEmpty()
                ? new LevelSource(Hierarchy.derive(latencies, thresholds), thresholds, algorithms, Origin.DERIVED)
                : new LevelSource(Hierarchy.of(configured), thresholds, algorithms, Origin.CONFIG);
    }
}
