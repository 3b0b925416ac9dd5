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
        try {
            return Optional.of(read(config));
        } catch (IllegalArgumentException e) {
            err.println("canopy " + command + ": " + e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * The validated grid of {@code config} (the bundled example when null).
     *
     * @throws IllegalArgumentException naming the file and every diagnostic when it cannot be used
     */
    public static GridModel read(Path config) {
        if (config == null) {
            return GridConfigs.defaultGrid();
        }
        if (!Files.exists(config)) {
            throw new IllegalArgumentException("level file " + config + " does not exist (give the path of an RSL level"
                    + " file, e.g. examples/grids/two-site.rsl)");
        }
        if (!Files.isRegularFile(config)) {
            // every process of a job reads the file again: a pipe or a device would give each something else
            throw new IllegalArgumentException("level file " + config + " is not a regular file (a directory, device or pipe);"
                    + " give the path of an RSL level file, e.g. examples/grids/two-site.rsl");
        }
        ParseResult parsed = GridConfigs.load(config);
        if (!parsed.isValid()) {
            throw new IllegalArgumentException(config + " is not a valid level file:\n" + parsed.formatted());
        }
        return parsed.orElseThrow();
    }
}
