package dev.canopy.collectives.run;

import io.vertx.core.Vertx;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a fatal JVM error end the process: an {@link OutOfMemoryError}, {@link StackOverflowError} or any
 * other {@link VirtualMachineError} that escapes a thread or a Vert.x event loop leads to an
 * {@link EmergencyExit} with status {@link EmergencyExit#FATAL_ERROR}, instead of a process that keeps
 * running broken (Vert.x logs an event loop's exception and carries on; a dead thread is just gone).
 * Processes started by {@code canopy launch} also run with {@code -XX:+ExitOnOutOfMemoryError}, which ends
 * the JVM at the first heap exhaustion wherever it happens, even where no handler sees it (inside Netty).
 *
 * <p>Only {@link #install() installed} in a process's main (it decides for the whole JVM); sessions
 * otherwise just log what reaches their event loops.
 */
public final class FatalErrors {

    private static final Logger LOG = LoggerFactory.getLogger(FatalErrors.class);
    private static final AtomicBoolean INSTALLED = new AtomicBoolean();

    private FatalErrors() {
    }

    /**
     * Installs the JVM's default uncaught-exception handler; from now on, fatal errors on event loops end the
     * process too. Idempotent.
     */
    public static void install() {
        if (!INSTALLED.compareAndSet(false, true)) {
            return;
        }
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> {
            if (isFatal(error)) {
                die(error, "thread " + thread.getName());
            } else if (previous != null) {
                previous.uncaughtException(thread, error);
            } else {
                LOG.error("uncaught exception in thread {}", thread.getName(), error);
            }
        });
    }

    /** Routes the exceptions that escape {@code vertx}'s handlers here: logged, and fatal ones end the process. */
    static void watch(Vertx vertx) {
        vertx.exceptionHandler(error -> {
            if (INSTALLED.get() && isFatal(error)) {
                die(error, "an event loop");
            } else {
                LOG.error("unhandled exception on an event loop", error);
            }
        });
    }

    static boolean isFatal(Throwable error) {
        return error instanceof VirtualMachineError;
    }

    /** A fatal error reached the program's own code (its main thread): ends the process the same way. */
    static void die(Throwable error, String where) {
        EmergencyExit.exit(EmergencyExit.FATAL_ERROR, "fatal " + error + " in " + where);
    }
}
