package dev.canopy.cli;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns anything escaping a subcommand into one line on stderr and an exit status:
 * {@link IllegalArgumentException} means the user's input was wrong (exit 2), and so does running out
 * of memory or stack, which only input too large or too deep for this JVM causes; anything else is an
 * operational failure while running (exit 1: ZooKeeper unreachable, a rank or a collective failed).
 * The stack trace follows only with {@code -v} (or {@code CANOPY_DEBUG=1}).
 */
final class UserFacingErrors implements IExecutionExceptionHandler {

    static final int EXIT_FAILURE = 1;
    static final int EXIT_BAD_INPUT = 2;

    @Override
    public int handleExecutionException(Exception ex, CommandLine commandLine, ParseResult parseResult) {
        return report(ex, commandLine, verbose(parseResult));
    }

    /** Prints {@code problem} for the user of {@code commandLine} and returns the exit status. */
    static int report(Throwable problem, CommandLine commandLine, boolean verbose) {
        Throwable cause = unwrapped(problem);
        PrintWriter err = commandLine.getErr();
        int status = exitStatus(cause);
        String hint = status == EXIT_FAILURE && !verbose ? " (-v shows the stack trace)" : "";
        // "canopy topology plan", or just "canopy" when the top command itself failed
        err.println(commandLine.getCommandSpec().qualifiedName(" ") + ": " + describe(cause) + hint);
        if (verbose) {
            problem.printStackTrace(err);
        }
        err.flush();
        return status;
    }

    static int exitStatus(Throwable cause) {
        return cause instanceof IllegalArgumentException || cause instanceof OutOfMemoryError
                || cause instanceof StackOverflowError ? EXIT_BAD_INPUT : EXIT_FAILURE;
    }

    /** Whether {@code -v} was given to the command or any subcommand, or {@code CANOPY_DEBUG=1} is set. */
    static boolean verbose(ParseResult parseResult) {
        for (ParseResult at = parseResult; at != null; at = at.subcommand()) {
            if (at.hasMatchedOption(CanopyCommand.VERBOSE)) {
                return true;
            }
        }
        return "1".equals(System.getenv("CANOPY_DEBUG"));
    }

    /** The exception that says what went wrong, beneath the wrappers of futures, reflection and picocli. */
    private static Throwable unwrapped(Throwable problem) {
        Throwable cause = problem;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException
                || cause instanceof InvocationTargetException || cause instanceof CommandLine.ExecutionException)
                && cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static String describe(Throwable cause) {
        if (cause instanceof OutOfMemoryError) {
            return "ran out of memory (" + cause.getMessage() + "): the input is too large for this JVM; give a smaller"
                    + " input, or more heap with CANOPY_JAVA_OPTS=-Xmx4g";
        }
        if (cause instanceof StackOverflowError) {
            return "ran out of stack: the input is nested too deeply for this JVM; give a simpler input, or more stack"
                    + " with CANOPY_JAVA_OPTS=-Xss8m";
        }
        String message = cause.getMessage();
        return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
    }
}
