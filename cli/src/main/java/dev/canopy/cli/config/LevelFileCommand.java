package dev.canopy.cli.config;

import dev.canopy.gridconfig.Diagnostic;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.ParseResult;
import dev.canopy.gridconfig.model.GridModel;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * A {@code config} subcommand that reads one level file: exit 0 with what {@link #write} prints,
 * or exit 2 with every problem on stderr, one per line as compilers print them, then their number.
 */
abstract class LevelFileCommand implements Callable<Integer> {

    /** Exit status for a level file with errors: bad input. */
    static final int EXIT_BAD_INPUT = 2;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "the level file")
    private Path file;

    /** Prints the result of the command for a valid file. */
    abstract void write(GridModel model, Path file, PrintWriter out);

    @Override
    public final Integer call() {
        ParseResult result = GridConfigs.load(file);
        if (!result.isValid()) {
            PrintWriter err = spec.commandLine().getErr();
            result.diagnostics().stream().map(Diagnostic::format).forEach(err::println);
            long count = result.errorCount();
            err.println(count + (count == 1 ? " error" : " errors") + " in " + file);
            err.flush();
            return EXIT_BAD_INPUT;
        }
        PrintWriter out = spec.commandLine().getOut();
        write(result.orElseThrow(), file, out);
        out.flush();
        return 0;
    }
}
