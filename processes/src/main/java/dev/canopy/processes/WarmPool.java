package dev.canopy.processes;

import java.util.ArrayDeque;
import java.util.Deque;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Pre-started child JVMs that have loaded their entry and wait for a binding, so that a spawn only binds a
 * process instead of paying a JVM's start-up. {@link #take()} hands out a warm child (one still warming up if
 * none is ready yet); its replacement starts once the taken child's start-up is over (it reports
 * {@link ChildMain#STARTED_MARKER}, ends, or {@link #REFILL_AFTER} passes): a JVM warming up next to a
 * starting child would take the CPU that child's start needs. A child that dies while it waits is dropped.
 * Thread-safe.
 */
public final class WarmPool implements AutoCloseable {

    /** Longest a replacement waits for the start-up of the child it replaces. */
    static final Duration REFILL_AFTER = Duration.ofSeconds(10);

    private final ChildStarter starter;
    private final int size;
    private final Map<String, String> properties;
    private final Deque<StartedChild> waiting = new ArrayDeque<>();
    /** Taken children whose start-up is not over yet: their replacements wait. */
    private int starting;
    private boolean closed;

    /** Starts {@code size} warm children. */
    public WarmPool(ChildStarter starter, int size) {
        this(starter, size, Map.of());
    }

    /** Starts {@code size} warm children, each with {@code properties} ({@link ChildStarter#startWarm(Map)}). */
    public WarmPool(ChildStarter starter, int size, Map<String, String> properties) {
        if (size < 0) {
            throw new IllegalArgumentException("a warm pool holds 0 or more processes, got " + size);
        }
        this.starter = starter;
        this.size = size;
        this.properties = Map.copyOf(properties);
        synchronized (this) {
            refill();
        }
    }

    public int size() {
        return size;
    }

    /** A warm child, preferring one that has finished warming up; empty when the pool holds none. */
    public synchronized Optional<StartedChild> take() {
        waiting.removeIf(child -> !child.isAlive());
        Optional<StartedChild> taken = waiting.stream().filter(child -> child.warm().isDone()
                && !child.warm().isCompletedExceptionally()).findFirst().or(() -> Optional.ofNullable(waiting.peekFirst()));
        taken.ifPresent(child -> {
            waiting.remove(child);
            starting++;
            child.started().completeOnTimeout(null, REFILL_AFTER.toMillis(), TimeUnit.MILLISECONDS)
                    .thenRun(this::startedUp);
        });
        refill(); // replaces children that died while they waited
        return taken;
    }

    private synchronized void startedUp() {
        starting--;
        refill();
    }

    /** How many children wait in the pool and are warm. */
    public synchronized int ready() {
        return (int) waiting.stream().filter(child -> child.isAlive() && child.warm().isDone()
                && !child.warm().isCompletedExceptionally()).count();
    }

    private void refill() {
        while (!closed && waiting.size() + starting < size) {
            StartedChild child = starter.startWarm(properties);
            waiting.addLast(child);
            child.onExit().thenRun(() -> dropped(child));
        }
    }

    private synchronized void dropped(StartedChild child) {
        waiting.remove(child);
    }

    /** Kills every waiting child; those already taken belong to their taker. */
    @Override
    public synchronized void close() {
        closed = true;
        waiting.forEach(StartedChild::kill);
        waiting.clear();
    }
}
