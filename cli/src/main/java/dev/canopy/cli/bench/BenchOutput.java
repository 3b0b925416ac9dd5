package dev.canopy.cli.bench;

import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --json} of the {@code canopy bench} commands and what they print: the report (JSON with {@code --json},
 * else the command's table) on standard output, and on standard error, each line led by the command's name,
 * refused input (exit {@value #EXIT_BAD_INPUT}) and failures (exit {@value #EXIT_FAILED}). A command whose
 * {@code --json}, {@code --plot} or {@code --timeout} help differs from the defaults here says so in the
 * {@value #TEXTS} resource bundle (keys {@code canopy.bench.<command>.json}, {@code .plot}, {@code .timeout}).
 */
public final class BenchOutput {

    /** The resource bundle of the bench commands' option descriptions; every command with these mixins names it. */
    public static final String TEXTS = "dev.canopy.cli.bench.BenchOptionTexts";

    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILED = 1;
    public static final int EXIT_BAD_INPUT = 2;

    @Spec(Spec.Target.MIXEE)
    private CommandSpec command;

    @Option(names = "--json", descriptionKey = "json", description = "Print JSON instead of a table.")
    private boolean json;

    /** Whether {@code --json} was given. */
    public boolean json() {
        return json;
    }

    /** Runs {@code body} unless {@code invalid} names a problem with the input: then says it and exits 2. */
    public int unlessInvalid(Optional<String> invalid, Callable<Integer> body) throws Exception {
        if (invalid.isPresent()) {
            return refuse(invalid.get());
        }
        return body.call();
    }

    /** Says why the input is refused; returns {@value #EXIT_BAD_INPUT}. */
    public int refuse(String problem) {
        say(command, problem);
        return EXIT_BAD_INPUT;
    }

    /** Says what failed; returns {@value #EXIT_FAILED}. */
    public int fail(String failure) {
        say(command, failure);
        return EXIT_FAILED;
    }

    /** Prints the report: {@code report} with {@code --json}, else the {@code table}. */
    public void print(JsonObject report, Supplier<String> table) {
        PrintWriter out = command.commandLine().getOut();
        out.println(json ? report.encodePrettily() : table.get());
        out.flush();
    }

    /** One line on {@code command}'s standard error, led by its name ("canopy bench segmentation: ..."). */
    static void say(CommandSpec command, String message) {
        PrintWriter err = command.commandLine().getErr();
        err.println("canopy " + command.qualifiedName(" ").replaceFirst("^canopy ", "") + ": " + message);
        err.flush();
    }
}
