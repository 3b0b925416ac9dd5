package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.model.LevelAlgorithms;
import dev.canopy.gridconfig.model.MulticastRange;
import dev.canopy.gridconfig.model.Thresholds;
import java.util.Optional;

/** What the grid section says, defaults filled in except the name (which defaults to the file's). */
record GridSettings(Optional<String> name, double defaultRttMs, LevelAlgorithms levels, Thresholds thresholds,
        MulticastRange multicast) {

    static final double DEFAULT_RTT_MS = 100;

    /** The settings of a file without a grid section. */
    static GridSettings defaults() {
        return new GridSettings(Optional.empty(), DEFAULT_RTT_MS, LevelAlgorithms.DEFAULTS, Thresholds.DEFAULTS, MulticastRange.DEFAULT);
    }
}
