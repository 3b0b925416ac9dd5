package dev.canopy.collectives.internal.timing;

import dev.canopy.collectives.CollectiveObserver;
import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.core.internal.security.Printable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * This member's most recent collectives with their wall-clock arrival and completion ({@link OperationTiming}), as
 * the {@link CollectiveObserver} of its collectives: the last {@value #KEPT} operations, oldest dropped first. Noting
 * one costs a clock read and a few fields under a lock held for nanoseconds, on the caller's thread and the
 * communicator's event loop; the {@link TimingsPublisher} takes copies from another thread.
 */
public final class OperationTimings implements CollectiveObserver {

    /** How many operations are kept (and published): enough for the dashboard's recent operations, bounded. */
    public static final int KEPT = 32;
    /** A failure's reason is cut to this length. */
    static final int MAX_FAILURE_CHARS = 200;

    private final LongSupplier wallClockMicros;
    private final List<OperationTiming> kept = new ArrayList<>(KEPT + 1);
    private long version;

    public OperationTimings() {
        this(OperationTimings::nowMicros);
    }

    /** @param wallClockMicros microseconds since the epoch (tests give their own) */
    OperationTimings(LongSupplier wallClockMicros) {
        this.wallClockMicros = wallClockMicros;
    }

    @Override
    public Observation started(Operation operation, int root, long bytes) {
        long arrival = wallClockMicros.getAsLong();
        return new Observation() {
            private OperationTiming timing;

            @Override
            public void sequenced(int contextId, long sequence, long epoch) {
                timing = new OperationTiming(contextId, sequence, operation, root, bytes, epoch, arrival, Optional.empty(),
                        Optional.empty());
                keep(null, timing);
            }

            @Override
            public void completed(Throwable failure) {
                OperationTiming done = timing.completed(wallClockMicros.getAsLong(), Optional.ofNullable(failure)
                        .map(OperationTimings::reason));
                keep(timing, done);
                timing = done;
            }
        };
    }

    /** The version the kept operations are at: it grows with every change. */
    public synchronized long version() {
        return version;
    }

    /** The kept operations, oldest first, and the version they are at. */
    public synchronized Snapshot snapshot() {
        return new Snapshot(version, List.copyOf(kept));
    }

    /** The kept operations at one version (it grows with every change). */
    public record Snapshot(long version, List<OperationTiming> operations) {
    }

    /** Replaces {@code before} (null: a new operation) by {@code after}; an operation dropped meanwhile stays dropped. */
    private synchronized void keep(OperationTiming before, OperationTiming after) {
        version++;
        if (before == null) {
            kept.add(after);
            if (kept.size() > KEPT) {
                kept.remove(0);
            }
            return;
        }
        // The operation that completes is almost always among the newest: search from the end.
        for (int at = kept.size() - 1; at >= 0; at--) {
            if (kept.get(at) == before) {
                kept.set(at, after);
                return;
            }
        }
    }

    private static String reason(Throwable failure) {
        String message = failure.getMessage() == null || failure.getMessage().isEmpty() ? failure.getClass().getSimpleName()
                : failure.getMessage();
        return Printable.of(message, MAX_FAILURE_CHARS - 40);
    }

    private static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }
}
