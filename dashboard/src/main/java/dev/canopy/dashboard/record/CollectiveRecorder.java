package dev.canopy.dashboard.record;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Collects the starts and completions of collectives reported by the {@link RecordingObserver} of every
 * member in this JVM, or read from the members' published timings ({@link MemberTimingsFeed}), matches them by (communicator, sequence number) and, once every rank has completed (or
 * {@value #GIVE_UP_MS} ms after the first start), turns them into a {@link CompletedOperation} with its skew
 * report. Keeps the last {@value #KEPT_PER_COMMUNICATOR} per communicator. Times are nanoseconds on one clock for
 * all ranks (the JVM's for in-process members, the wall clock for published timings). Members report from their own
 * event loops, so the methods are synchronized; nothing here is on a collective's hot path.
 */
public final class CollectiveRecorder {

    static final int KEPT_PER_COMMUNICATOR = 50;
    static final long GIVE_UP_MS = 30_000;

    private final Map<String, Pending> pending = new LinkedHashMap<>();
    private final Map<String, Deque<CompletedOperation>> completed = new LinkedHashMap<>();
    private final List<Consumer<CompletedOperation>> listeners = new CopyOnWriteArrayList<>();

    /** Hears every completed operation, on the thread of the member that completed it last. */
    public void onCompleted(Consumer<CompletedOperation> listener) {
        listeners.add(listener);
    }

    void started(OperationStart start, int rank, long nanos) {
        List<CompletedOperation> done;
        synchronized (this) {
            Pending operation = pending.computeIfAbsent(key(start.contextId(), start.sequence()), k -> new Pending(start, nanos));
            if (rank == start.root()) {
                operation.start = start; // the root's own view: only it knows a bcast's or scatter's payload
            }
            operation.arrival[rank] = nanos;
            done = expire(nanos);
        }
        done.forEach(this::publish);
    }

    void completed(int contextId, long sequence, int rank, long nanos, Throwable failure) {
        completed(contextId, sequence, rank, nanos, failure == null ? null : failure.getMessage());
    }

    /** @param failure why the operation failed at {@code rank}, or null */
    void completed(int contextId, long sequence, int rank, long nanos, String failure) {
        CompletedOperation done = null;
        synchronized (this) {
            Pending operation = pending.get(key(contextId, sequence));
            if (operation == null) {
                return;
            }
            operation.completion[rank] = nanos;
            if (failure != null && operation.failure == null) {
                operation.failure = "rank " + rank + ": " + failure;
            }
            if (++operation.completions == operation.completion.length) {
                pending.remove(key(contextId, sequence));
                done = keep(operation.finish(true));
            }
        }
        if (done != null) {
            publish(done);
        }
    }

    /** {@code {"communicators":[{"name":..,"operations":[newest first]}]}}, at most {@code limit} per communicator. */
    public synchronized JsonObject toJson(int limit) {
        JsonArray communicators = new JsonArray();
        completed.forEach((name, operations) -> {
            JsonArray newestFirst = new JsonArray();
            Iterator<CompletedOperation> it = operations.descendingIterator();
            while (it.hasNext() && newestFirst.size() < limit) {
                newestFirst.add(it.next().json());
            }
            communicators.add(new JsonObject().put("name", name).put("operations", newestFirst));
        });
        return new JsonObject().put("communicators", communicators);
    }

    private List<CompletedOperation> expire(long now) {
        List<CompletedOperation> done = new ArrayList<>();
        Iterator<Pending> it = pending.values().iterator();
        while (it.hasNext()) {
            Pending operation = it.next();
            if (now - operation.firstNanos > GIVE_UP_MS * 1_000_000) {
                it.remove();
                done.add(keep(operation.finish(false)));
            }
        }
        return done;
    }

    private CompletedOperation keep(CompletedOperation operation) {
        Deque<CompletedOperation> kept = completed.computeIfAbsent(operation.communicator(), k -> new ArrayDeque<>());
        kept.addLast(operation);
        if (kept.size() > KEPT_PER_COMMUNICATOR) {
            kept.removeFirst();
        }
        return operation;
    }

    private void publish(CompletedOperation operation) {
        listeners.forEach(listener -> listener.accept(operation));
    }

    private static String key(int contextId, long sequence) {
        return contextId + "/" + sequence;
    }

    /** An operation some ranks have started and not all have completed. */
    private static final class Pending {

        OperationStart start;
        final long firstNanos;
        final long[] arrival;
        final long[] completion;
        int completions;
        String failure;

        Pending(OperationStart start, long firstNanos) {
            this.start = start;
            this.firstNanos = firstNanos;
            this.arrival = new long[start.members().size()];
            this.completion = new long[start.members().size()];
            Arrays.fill(arrival, Long.MIN_VALUE);
            Arrays.fill(completion, Long.MIN_VALUE);
        }

        CompletedOperation finish(boolean everyRank) {
            JsonObject skew = SkewReport.of(start, arrival, completion);
            String status = failure != null ? "failed: " + failure : everyRank ? "ok" : "incomplete: not every rank reported within "
                    + GIVE_UP_MS / 1000 + " s";
            String coarsest = start.algorithms().fieldNames().stream().findFirst().orElse("none");
            String algorithm = start.algorithms().getString(coarsest, "none");
            JsonObject json = new JsonObject()
                    .put("communicator", start.communicatorName())
                    .put("seq", start.sequence())
                    .put("op", start.operation().displayName())
                    .put("root", start.root())
                    .put("epoch", start.epoch())
                    .put("bytes", start.bytes())
                    .put("algorithms", start.algorithms())
                    .put("status", status)
                    .put("completion_ms", skew.getDouble("completion_ms"))
                    .put("skew", skew);
            return new CompletedOperation(start.communicatorName(), start.operation().displayName(), algorithm, coarsest,
                    start.bytes(), skew.getDouble("completion_ms"), failure == null && everyRank, json);
        }
    }
}
