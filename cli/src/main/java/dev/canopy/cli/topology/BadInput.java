package dev.canopy.cli.topology;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** Runs a topology command body; bad input becomes one line on stderr and exit status 2. */
final class BadInput {

    static final int EXIT_OK = 0;
    static final int EXIT_BAD_INPUT = 2;

    private BadInput() {
    }

    static int run(CommandSpec spec, Callable<Integer> body) throws Exception {
        try {
            return body.call();
        } catch (IllegalArgumentException e) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("canopy " + spec.qualifiedName(" ").replaceFirst("^canopy ", "") + ": " + e.getMessage());
            err.flush();
            return EXIT_BAD_INPUT;
        }
    }
}
