package dev.canopy.cli;

import dev.canopy.core.node.CanopyVertx;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Entry point of the fat jar. Exit status: 0 success, 1 a failure while running,
 * 2 bad input (arguments, files) with the reason on stderr. No stack trace reaches the user
 * unless {@code CANOPY_DEBUG=1} is set.
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
        return commandLine().execute(args);
    }

    /** Runs the command line writing to {@code out} and {@code err}; for tests that check what the user sees. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine commandLine = commandLine();
        commandLine.setOut(out);
        commandLine.setErr(err);
        return commandLine.execute(args);
    }

    private static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new CanopyCommand());
        commandLine.setExecutionExceptionHandler(new UserFacingErrors());
        return commandLine;
    }
}
