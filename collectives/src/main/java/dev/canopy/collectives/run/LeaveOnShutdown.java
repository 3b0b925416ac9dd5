package dev.canopy.collectives.run;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Makes a process that is told to stop (SIGTERM from {@code kill}, Slurm's {@code scancel} or the end of its
 * time limit, {@code mpirun} passing on a signal; SIGINT from Ctrl-C) leave its job cleanly: a JVM shutdown
 * hook leaves every open session, saying goodbye to the other members (they see a departure, not a failure)
 * and closing the ZooKeeper session (the member znode goes at once, not after the session timeout). The JVM
 * then exits with the signal's conventional status, 128 + the signal number: 143 after SIGTERM, 130 after
 * SIGINT. Leaving is bounded by {@link #LEAVE_BOUND}, well inside the grace a batch system gives between
 * SIGTERM and SIGKILL (Slurm's KillWait is 30 s by default).
 *
 * <p>The hook also runs at a normal {@code System.exit}, when every session is already closed: then it does
 * nothing. A program failing because its session was left by the hook cannot change the exit status: its
 * {@code System.exit} waits for the shutdown already under way.
 */
public final class LeaveOnShutdown {

    /** How long leaving may take before the JVM exits anyway. */
    public static final Duration LEAVE_BOUND = Duration.ofSeconds(5);

    private static final AtomicBoolean INSTALLED = new AtomicBoolean();

    private LeaveOnShutdown() {
    }

    /** Installs the shutdown hook (once per JVM; later calls do nothing). */
    public static void install() {
        if (!INSTALLED.compareAndSet(false, true)) {
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(LeaveOnShutdown::leave, "canopy leave on shutdown"));
    }

    private static void leave() {
        if (!EmergencyExit.anySessionOpen()) {
            return;
        }
        System.err.println("canopy: stopping (SIGTERM, SIGINT or System.exit while joined); leaving the job");
        System.err.flush();
        try {
            EmergencyExit.leaveOpenSessions(LEAVE_BOUND);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
