package dev.canopy.cli.config;

import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code canopy config show FILE [--json]}: the normalised model, every default filled in. */
@Command(
        name = "show",
        mixinStandardHelpOptions = true,
        description = {"Show a level file with every default filled in: as canonical RSL, or as JSON with --json.",
            "Errors go to stderr as FILE:LINE:COLUMN: error: message, with exit status 2."})
public final class ConfigShowCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "the level file")
    private Path file;

    @Option(names = "--json", description = "print the model as JSON instead of RSL")
    private boolean json;

    @Override
    public Integer call() {
        Optional<GridModel> model = LevelFileLoader.load(file, spec.commandLine().getErr());
        if (model.isEmpty()) {
            return LevelFileLoader.EXIT_BAD_INPUT;
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(GridModelJson.of(model.get()).encodePrettily());
        } else {
            out.print(GridConfigs.print(model.get()));
        }
        out.flush();
        return 0;
    }
}
