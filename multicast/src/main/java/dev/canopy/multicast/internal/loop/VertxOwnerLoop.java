package dev.canopy.multicast.internal.loop;

import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * An {@link OwnerLoop} on a Vert.x context. Vert.x timers have millisecond resolution, so delays are
 * rounded up to whole milliseconds (never below 1 ms): configure timeouts for this loop in milliseconds.
 */
public final class VertxOwnerLoop implements OwnerLoop {

    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final Vertx vertx;
    private final Context context;

    public VertxOwnerLoop(Vertx vertx, Context context) {
        this.vertx = vertx;
        this.context = context;
    }

    /** The context tasks run on. */
    public Context context() {
        return context;
    }

    @Override
    public void execute(Runnable task) {
        context.runOnContext(ignored -> task.run());
    }

    @Override
    public Timer schedule(long delayNanos, Runnable task) {
        long millis = Math.max(1, (delayNanos + NANOS_PER_MILLI - 1) / NANOS_PER_MILLI);
        VertxTimer timer = new VertxTimer(task);
        timer.id = vertx.setTimer(millis, id -> context.runOnContext(ignored -> timer.fire()));
        return timer;
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    private final class VertxTimer implements Timer {

        private final Runnable task;
        private volatile long id;
        private boolean cancelled; // owner loop only

        VertxTimer(Runnable task) {
            this.task = task;
        }

        void fire() {
            if (!cancelled) {
                cancelled = true;
                task.run();
            }
        }

        @Override
        public void cancel() {
            cancelled = true;
            vertx.cancelTimer(id);
        }
    }
}
