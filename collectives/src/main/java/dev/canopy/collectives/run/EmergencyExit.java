package dev.canopy.collectives.run;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How a Canopy process ends when it cannot go on (a fatal JVM error, its launcher gone): it tries, for at
 * most {@link #LEAVE_BOUND}, to leave every job it is in (so the others see it leave at once, rather than
 * after its ZooKeeper session times out), then halts the JVM with a status that says why. Halting skips
 * shutdown hooks, which could hang in a broken JVM.
 *
 * <p>Exit statuses of Canopy processes: 0 the program returned, 1 it failed, 2 it could not be run,
 * {@link #FATAL_ERROR} a fatal JVM error, {@link #LAUNCHER_GONE} its launcher died.
 */
public final class EmergencyExit {

    /** A fatal JVM error: out of memory (also what {@code -XX:+ExitOnOutOfMemoryError} exits with), stack overflow, ... */
    public static final int FATAL_ERROR = 3;
    /** The {@code canopy launch} that started this process is gone. */
    public static final int LAUNCHER_GONE = 4;
    /** How long leaving may take before the JVM halts anyway. */
    static final Duration LEAVE_BOUND = Duration.ofMillis(1500);

    private static final Set<CanopySession> OPEN = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean EXITING = new AtomicBoolean();

    private EmergencyExit() {
    }

    static void opened(CanopySession session) {
        OPEN.add(session);
    }

    static void closed(CanopySession session) {
        OPEN.remove(session);
    }

    /**
     * Leaves every open session (bounded), then halts with {@code status}; returns at once, the work runs on
     * its own thread, so that it can be called from an event loop the leaving needs. Only the first call counts.
     */
    public static void exit(int status, String reason) {
        if (!EXITING.compareAndSet(false, true)) {
            return;
        }
        try {
            Thread exiting = new Thread(() -> leaveAndHalt(status, reason), "canopy emergency exit");
            exiting.setDaemon(true);
            exiting.start();
        } catch (Throwable cannotEvenStartAThread) {
            // Out of memory or threads: halting now is all that is left.
            Runtime.getRuntime().halt(status);
        }
    }

    /**
     * Returns {@code status}, unless an exit is under way: then waits for it to halt the JVM (it is bounded),
     * so that a program failing because its session was just left cannot end the process first with
     * another status, or before the leaving is done.
     */
    static int unlessExiting(int status) {
        if (EXITING.get()) {
            while (true) {
                try {
                    Thread.currentThread().join();
                } catch (InterruptedException e) {
                    // Keep waiting: the halt comes.
                }
            }
        }
        return status;
    }

    private static void leaveAndHalt(int status, String reason) {
        try {
            System.err.println("canopy: " + reason + "; leaving the job and exiting with status " + status);
            System.err.flush();
            leaveOpenSessions(LEAVE_BOUND);
        } catch (Throwable anything) {
            // Whatever failed, the process still has to end.
        } finally {
            Runtime.getRuntime().halt(status);
        }
    }

    /** Leaves every open session on a thread of its own, waiting for that at most {@code bound}. */
    static void leaveOpenSessions(Duration bound) throws InterruptedException {
        Thread leaving = new Thread(() -> List.copyOf(OPEN).forEach(EmergencyExit::leaveQuietly), "canopy leave");
        leaving.setDaemon(true);
        leaving.start();
        leaving.join(bound.toMillis());
    }

    /** Whether a session is open in this JVM (joined, and neither closed nor left). */
    static boolean anySessionOpen() {
        return !OPEN.isEmpty();
    }

    private static void leaveQuietly(CanopySession session) {
        try {
            session.leave();
        } catch (RuntimeException e) {
            System.err.println("canopy: could not leave the job cleanly: " + e);
        }
    }
}
