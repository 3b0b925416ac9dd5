package dev.canopy.cli;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns an exception escaping a subcommand into one line on stderr. {@link IllegalArgumentException}
 * means the user's input was wrong (exit 2); anything else is a failure while running (exit 1).
 */
final class UserFacingErrors implements IExecutionExceptionHandler {

    static final int EXIT_FAILURE = 1;
    static final int EXIT_BAD_INPUT = 2;

    @Override
    public int handleExecutionException(Exception ex, CommandLine commandLine, ParseResult parseResult) {
        commandLine.getErr().println("canopy " + commandLine.getCommandName() + ": " + describe(ex));
        if ("1".equals(System.getenv("CANOPY_DEBUG"))) {
            ex.printStackTrace(commandLine.getErr());
        }
        return ex instanceof IllegalArgumentException ? EXIT_BAD_INPUT : EXIT_FAILURE;
    }

    private static String describe(Throwable ex) {
        String message = ex.getMessage();
        return message == null || message.isBlank() ? ex.getClass().getSimpleName() : message;
    }
}
