package dev.canopy.multicast.internal.loop;

/**
 * The single owner of a member's multicast state: every handler, timer and completion of one member
 * runs here, one task at a time, so the state needs no locks (a Vert.x context in production,
 * {@code SimulatedLoop} in tests and model runs). Time comes from the loop too, so timeouts and
 * retransmissions are tested without sleeping.
 *
 * <p>{@link #execute} and {@link #schedule} may be called from any thread. Tasks given to
 * {@code execute} run in the order they were given; tasks scheduled with equal deadlines also run
 * in the order they were scheduled.
 */
public interface OwnerLoop {

    /** Runs {@code task} on this loop, after the tasks already queued. */
    void execute(Runnable task);

    /** Runs {@code task} on this loop once {@code delayNanos} have passed; the timer can be cancelled. */
    Timer schedule(long delayNanos, Runnable task);

    /** This loop's monotonic clock in nanoseconds. */
    long nanoTime();

    /** A scheduled task. */
    interface Timer {

        /** Stops the task from running; no effect once it ran. Call on the owner loop. */
        void cancel();
    }
}
