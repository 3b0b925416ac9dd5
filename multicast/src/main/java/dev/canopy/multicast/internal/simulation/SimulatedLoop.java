package dev.canopy.multicast.internal.simulation;

import dev.canopy.multicast.internal.loop.OwnerLoop;

/**
 * A member's loop in a {@link Simulation}. {@link #busyFor} models a process that is computing outside
 * the library (process skew): nothing of this member runs until the busy period ends, while the
 * fabric keeps filling its posted receive buffers. {@link #kill} models a crash: queued and future
 * tasks never run.
 */
public final class SimulatedLoop implements OwnerLoop {

    private final Simulation simulation;
    private final String name;
    private long busyUntil;
    private boolean dead;

    SimulatedLoop(Simulation simulation, String name) {
        this.simulation = simulation;
        this.name = name;
    }

    @Override
    public void execute(Runnable task) {
        simulation.at(simulation.nanoTime(), () -> runWhenFree(task));
    }

    @Override
    public Timer schedule(long delayNanos, Runnable task) {
        SimulatedTimer timer = new SimulatedTimer(task);
        simulation.at(simulation.nanoTime() + delayNanos, () -> runWhenFree(timer::fire));
        return timer;
    }

    @Override
    public long nanoTime() {
        return simulation.nanoTime();
    }

    /** The process computes for {@code nanos} from now (added to any busy period already running). */
    public void busyFor(long nanos) {
        busyUntil = Math.max(busyUntil, simulation.nanoTime()) + nanos;
    }

    /** The process crashes: nothing of it runs any more. */
    public void kill() {
        dead = true;
    }

    public boolean isDead() {
        return dead;
    }

    @Override
    public String toString() {
        return name;
    }

    private void runWhenFree(Runnable task) {
        if (dead) {
            return;
        }
        if (simulation.nanoTime() < busyUntil) {
            simulation.at(busyUntil, () -> runWhenFree(task));
            return;
        }
        task.run();
    }

    private static final class SimulatedTimer implements Timer {

        private final Runnable task;
        private boolean cancelled;

        SimulatedTimer(Runnable task) {
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
        }
    }
}
