package dev.canopy.cli;

import ch.qos.logback.classic.Level;
import java.io.PrintWriter;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * How much a {@code canopy} run says: {@code -v} (the log at INFO, and stack traces after error messages), {@code -q}
 * (the log at ERROR, no progress lines), or neither ({@code CANOPY_LOG_LEVEL}, default WARN). Read once per run from
 * the parsed command line, anywhere on it ({@link #apply}), and passed on to the processes the run starts
 * ({@link #childLogLevel()}), so {@code canopy launch -v} shows the nodes' INFO lines too.
 */
public final class Verbosity {

    /** The variable (or system property: logback reads both) that sets the log level of every Canopy JVM. */
    public static final String ENV_LOG_LEVEL = "CANOPY_LOG_LEVEL";
    static final String QUIET = "--quiet";

    private enum Choice {
        QUIET(Level.ERROR), NORMAL(null), VERBOSE(Level.INFO);

        private final Level level;

        Choice(Level level) {
            this.level = level;
        }
    }

    private static volatile Choice choice = Choice.NORMAL;
    /** The root level logback's configuration gave (CANOPY_LOG_LEVEL or WARN), restored by a run without -v or -q. */
    private static Level configured;

    private Verbosity() {
    }

    /**
     * Takes {@code -v} or {@code -q} from {@code parsed} and sets this JVM's log level.
     *
     * @throws ParameterException when both are given
     */
    static void apply(ParseResult parsed) {
        boolean verbose = matched(parsed, CanopyCommand.VERBOSE);
        boolean quiet = matched(parsed, QUIET);
        if (verbose && quiet) {
            throw new ParameterException(parsed.commandSpec().commandLine(), "give -v (--verbose) or -q (--quiet),"
                    + " not both");
        }
        choice = verbose ? Choice.VERBOSE : quiet ? Choice.QUIET : Choice.NORMAL;
        Logger root = LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
        if (root instanceof ch.qos.logback.classic.Logger logback) {
            synchronized (Verbosity.class) {
                if (configured == null) {
                    configured = logback.getLevel();
                }
                logback.setLevel(choice.level != null ? choice.level : configured);
            }
        }
    }

    /** Whether {@code -q} was given: no progress lines. */
    public static boolean quiet() {
        return choice == Choice.QUIET;
    }

    /**
     * The log level of the processes this run starts ({@value #ENV_LOG_LEVEL}, as a variable or, logback reading
     * both, a {@code -D} system property); empty without -v or -q: theirs is their own environment's.
     */
    public static Optional<String> childLogLevel() {
        return Optional.ofNullable(choice.level).map(Level::toString);
    }

    /** Prints {@code line} on {@code err} as a progress line, unless {@code -q}. */
    public static void progress(PrintWriter err, String line) {
        if (!quiet()) {
            synchronized (err) {
                err.println(line);
                err.flush();
            }
        }
    }

    private static boolean matched(ParseResult parsed, String option) {
        for (ParseResult at = parsed; at != null; at = at.subcommand()) {
            if (at.hasMatchedOption(option)) {
                return true;
            }
        }
        return false;
    }
}
