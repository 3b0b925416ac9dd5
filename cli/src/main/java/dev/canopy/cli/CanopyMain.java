package dev.canopy.cli;

import dev.canopy.core.node.CanopyVertx;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Entry point of the fat jar. Exit status: 0 success, 1 an operational failure while running
 * (ZooKeeper unreachable, a rank or a collective failed), 2 bad input (arguments, files, or input so
 * large or deep that the JVM ran out of memory or stack), each with one line on stderr. The stack
 * trace follows only with {@code -v} (or {@code CANOPY_DEBUG=1}).
 */
public final class CanopyMain {

    private CanopyMain() {
    }

    public static void main(String[] args) {
        CanopyVertx.useSystemResolver(); // no Vert.x DNS socket on the wildcard address
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit status; used by tests that check CLI contracts. */
    public static int run(String... args) {
        return run(commandLine(), args);
    }

    /** Runs the command line writing to {@code out} and {@code err}; for tests that check what the user sees. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine commandLine = commandLine();
        commandLine.setOut(out);
        commandLine.setErr(err);
        return run(commandLine, args);
    }

    /** Picocli hands exceptions to {@link UserFacingErrors}; errors (out of memory or stack) come out here. */
    static int run(CommandLine commandLine, String... args) {
        try {
            return commandLine.execute(args);
        } catch (OutOfMemoryError | StackOverflowError e) {
            CommandLine.ParseResult parsed = commandLine.getParseResult();
            CommandLine failing = commandLine;
            for (CommandLine.ParseResult at = parsed; at != null; at = at.subcommand()) {
                failing = at.commandSpec().commandLine();
            }
            return UserFacingErrors.report(e, failing, parsed != null && UserFacingErrors.verbose(parsed));
        }
    }

    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new CanopyCommand());
        commandLine.setExecutionExceptionHandler(new UserFacingErrors());
        commandLine.setExecutionStrategy(parsed -> {
            Verbosity.apply(parsed);
            return new CommandLine.RunLast().execute(parsed);
        });
        return commandLine;
    }
}
