package dev.canopy.cli.dashboard;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Keeps a command running for a duration or until Ctrl-C, whichever comes first, and lets it clean up either
 * way: Ctrl-C (SIGINT, SIGTERM) ends the wait at once and the JVM's shutdown waits up to
 * {@value #CLEANUP_SECONDS} s for the command to say it has cleaned up.
 */
public final class UntilStopped implements AutoCloseable {

    private static final long CLEANUP_SECONDS = 20;

    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch cleanedUp = new CountDownLatch(1);
    private final Thread hook;

    public UntilStopped() {
        hook = new Thread(() -> {
            stop.countDown();
            try {
                cleanedUp.await(CLEANUP_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "canopy-ctrl-c");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Waits {@code duration} (forever if null) or until Ctrl-C; true when stopped by Ctrl-C. */
    public boolean await(Duration duration) throws InterruptedException {
        if (duration == null) {
            stop.await();
            return true;
        }
        return stop.await(duration.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether Ctrl-C was pressed. */
    public boolean stopped() {
        return stop.getCount() == 0;
    }

    /** The command has cleaned up: a pending Ctrl-C shutdown may go on; otherwise the hook is removed. */
    @Override
    public void close() {
        cleanedUp.countDown();
        if (!stopped()) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down already; the hook sees cleanedUp
            }
        }
    }
}
