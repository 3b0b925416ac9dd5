package dev.canopy.cli.collectives;

import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.ParseResult;
import dev.canopy.gridconfig.model.GridModel;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Reads the {@code --config} level file of a command; on a problem tells the user what to fix. */
final class LevelFiles {

    private LevelFiles() {
    }

    /** The validated grid, or empty after printing why it cannot be used (the command then exits 2). */
    static Optional<GridModel> load(Path config, String command, PrintWriter err) {
        if (!Files.isRegularFile(config)) {
            err.println("canopy " + command + ": level file " + config + " does not exist");
            return Optional.empty();
        }
        ParseResult parsed = GridConfigs.load(config);
        if (!parsed.isValid()) {
            err.println("canopy " + command + ": " + config + " is not a valid level file:\n" + parsed.formatted());
            return Optional.empty();
        }
        return parsed.model();
    }
}
