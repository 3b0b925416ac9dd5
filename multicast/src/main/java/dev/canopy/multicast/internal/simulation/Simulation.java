package dev.canopy.multicast.internal.simulation;

import dev.canopy.core.internal.emulation.DelayScheduler;
import dev.canopy.core.internal.emulation.NanoClock;
import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;

/**
 * Discrete-event time for tests and model runs: one thread, a virtual clock that jumps from event to
 * event, and member loops ({@link SimulatedLoop}) that can be busy (process skew) or dead. Events with
 * equal times run in the order they were scheduled. The same substrate code runs here and on Vert.x;
 * only the owner loops and the fabric's wire differ.
 *
 * <p>Not thread-safe: everything, including {@link #runUntil}, happens on the caller's thread.
 */
public final class Simulation implements NanoClock {

    private final PriorityQueue<Event> events = new PriorityQueue<>();
    private long now;
    private long order;

    @Override
    public long nanoTime() {
        return now;
    }

    /** A new member loop on this simulation. */
    public SimulatedLoop newLoop(String name) {
        return new SimulatedLoop(this, name);
    }

    /** The fabric's wire: tasks run at their deadlines, whatever the members are doing. */
    public DelayScheduler wire() {
        return new DelayScheduler() {
            @Override
            public void schedule(long deadlineNanos, Runnable task) {
                at(deadlineNanos, task);
            }

            @Override
            public void close() {
                // the simulation owns the event queue
            }
        };
    }

    /** Runs {@code task} at virtual time {@code time} (now if it is in the past). */
    public void at(long time, Runnable task) {
        events.add(new Event(Math.max(time, now), order++, task));
    }

    /**
     * Runs events until {@code done} holds, the queue is empty, or virtual time passes {@code limitNanos}.
     * Returns whether {@code done} holds.
     */
    public boolean runUntil(BooleanSupplier done, long limitNanos) {
        while (!done.getAsBoolean()) {
            Event next = events.peek();
            if (next == null || next.time > limitNanos) {
                return done.getAsBoolean();
            }
            events.poll();
            now = next.time;
            next.task.run();
        }
        return true;
    }

    /** Events waiting to run (timers included). */
    public int pendingEvents() {
        return events.size();
    }

    private record Event(long time, long order, Runnable task) implements Comparable<Event> {

        @Override
        public int compareTo(Event other) {
            int byTime = Long.compare(time, other.time);
            return byTime != 0 ? byTime : Long.compare(order, other.order);
        }
    }
}
