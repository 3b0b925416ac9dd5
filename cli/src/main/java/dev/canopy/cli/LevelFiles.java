package dev.canopy.cli;

import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.ParseResult;
import dev.canopy.gridconfig.model.GridModel;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads the {@code --config} level file of a command that runs a grid. Without a file, the bundled
 * 8-site example ({@link GridConfigs#DEFAULT_EXAMPLE}) is used.
 */
public final class LevelFiles {

    private LevelFiles() {
    }

    /** The validated grid, or empty after printing why it cannot be used (the command then exits 2). */
    public static Optional<GridModel> load(Path config, String command, PrintWriter err) {
        if (config == null) {
            return Optional.of(GridConfigs.defaultGrid());
        }
        if (!Files.isRegularFile(config)) {
            err.println("canopy " + command + ": level file " + config + " does not exist (give the path of an RSL level file, e.g. examples/grids/two-site.rsl)");
            return Optional.empty();
        }
        ParseResult parsed = GridConfigs.load(config);
        if (!parsed.isValid()) {
            err.println("canopy " + command + ": " + config + " is not a valid level file:");
            err.println(parsed.formatted());
            return Optional.empty();
        }
        return parsed.model();
    }
}
