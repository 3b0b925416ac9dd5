package dev.canopy.cli.config;

import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code canopy config show FILE [--json]}: the normalised model, every default filled in. */
@Command(
        name = "show",
        mixinStandardHelpOptions = true,
        description = {"Show a level file with every default filled in: as canonical RSL, or as JSON with --json.",
            "Errors go to stderr as FILE:LINE:COLUMN: error: message, with exit status 2."})
public final class ConfigShowCommand extends LevelFileCommand {

    @Option(names = "--json", description = "print the model as JSON instead of RSL")
    private boolean json;

    @Override
    void write(GridModel model, Path file, PrintWriter out) {
        if (json) {
            out.println(GridModelJson.of(model).encodePrettily());
        } else {
            out.print(GridConfigs.print(model));
        }
    }
}
