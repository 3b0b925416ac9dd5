package dev.canopy.cli.bench;

import dev.canopy.cli.plot.PlotFile;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --plot FILE.svg} of the {@code canopy bench} commands that draw their results: the file is checked before
 * the run ({@link #problem}) and written after it ({@link #draw}). The description of what each command draws is in
 * {@link BenchOutput#TEXTS}.
 */
public final class PlotOption {

    @Spec(Spec.Target.MIXEE)
    private CommandSpec command;

    @Option(names = "--plot", paramLabel = "FILE.svg", descriptionKey = "plot", description = "Also draw the results as an SVG.")
    private Path plot;

    /** Why the picture could not be written, found before the run; empty when it can or {@code --plot} is not given. */
    public Optional<String> problem() {
        return plot == null ? Optional.empty() : PlotFile.problem("--plot", plot);
    }

    /**
     * Writes the picture {@code svg} renders if {@code --plot} was given.
     *
     * @return {@value BenchOutput#EXIT_OK}, or {@value BenchOutput#EXIT_FAILED} after saying why the file could
     *         not be written
     */
    public int draw(Supplier<String> svg) {
        if (plot == null) {
            return BenchOutput.EXIT_OK;
        }
        Optional<String> failed = PlotFile.write("--plot", plot, svg.get());
        failed.ifPresent(message -> BenchOutput.say(command, message));
        return failed.isPresent() ? BenchOutput.EXIT_FAILED : BenchOutput.EXIT_OK;
    }
}
