package dev.canopy.cli.config;

import dev.canopy.gridconfig.Diagnostic;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.ParseResult;
import dev.canopy.gridconfig.model.GridModel;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;

/** Reads the level file named on the command line; its problems go to stderr, one per line, as compilers print them. */
final class LevelFileLoader {

    /** Exit status for a level file with errors: bad input. */
    static final int EXIT_BAD_INPUT = 2;

    private LevelFileLoader() {
    }

    /** The model of {@code file}, or empty after every problem was printed to {@code err}. */
    static Optional<GridModel> load(Path file, PrintWriter err) {
        ParseResult result = GridConfigs.load(file);
        if (!result.isValid()) {
            result.diagnostics().stream().map(Diagnostic::format).forEach(err::println);
            int count = result.diagnostics().size();
            err.println(count + (count == 1 ? " error" : " errors") + " in " + file);
            err.flush();
        }
        return result.model();
    }
}
