package dev.canopy.dashboard.record;

import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.engine.Operation;
import dev.canopy.collectives.reduce.ReduceOp;
import dev.canopy.core.comm.Communicator;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One member's collectives, reported to a {@link CollectiveRecorder}: each call's start (when the program called
 * it) and completion (when its future completed), so the dashboard can show every operation with its per-rank
 * skew. Wrap the {@link Collectives} of every member of a communicator in this JVM and call the operations in the
 * same order on every member, as always; members count their operations themselves, so the n-th call of every
 * member is one operation. The wrapped collectives run unchanged.
 */
public final class RecordedCollectives {

    // Replaced at a plan switch point (the same point on every member); the operations count on.
    private volatile Collectives collectives;
    private final CollectiveRecorder recorder;
    private long calls;

    public RecordedCollectives(Collectives collectives, CollectiveRecorder recorder) {
        this.collectives = collectives;
        this.recorder = recorder;
    }

    public Collectives collectives() {
        return collectives;
    }

    /**
     * Continues with {@code adopted} (the same communicator on a newer plan, from a switch point every member
     * passes at the same point of its sequence), keeping the count of operations.
     */
    public void switchTo(Collectives adopted) {
        if (adopted.communicator() != collectives.communicator()) {
            throw new IllegalArgumentException("switchTo takes the same communicator on another plan, got communicator "
                    + adopted.communicator().contextId() + " for " + collectives.communicator().contextId());
        }
        collectives = adopted;
    }

    public Future<Void> barrier() {
        return recorded(Operation.BARRIER, 0, 0, collectives::barrier);
    }

    public Future<Buffer> bcast(Buffer data, int root) {
        return recorded(Operation.BCAST, root, data == null ? 0 : data.length(), () -> collectives.bcast(data, root));
    }

    public Future<Optional<Buffer>> reduce(Buffer data, ElementType type, ReduceOp op, int root) {
        return recorded(Operation.REDUCE, root, data.length(), () -> collectives.reduce(data, type, op, root));
    }

    public Future<Buffer> allreduce(Buffer data, ElementType type, ReduceOp op) {
        return recorded(Operation.ALLREDUCE, 0, data.length(), () -> collectives.allreduce(data, type, op));
    }

    public Future<Buffer> allgather(Buffer data) {
        return recorded(Operation.ALLGATHER, 0, data.length(), () -> collectives.allgather(data));
    }

    /**
     * Takes the start time at the call, then (on the communicator's context, before the operation's own work is
     * posted there) describes the operation from the plan, which is confined to that context.
     */
    private synchronized <T> Future<T> recorded(Operation operation, int root, long bytes, Supplier<Future<T>> call) {
        long arrival = System.nanoTime();
        long sequence = ++calls;
        Collectives current = collectives;
        Communicator communicator = current.communicator();
        int rank = communicator.rank();
        if (root < 0 || root >= communicator.size()) {
            return call.get(); // the collective itself rejects the root, naming it
        }
        communicator.context().runOnContext(v -> recorder.started(describe(current, operation, root, bytes, sequence), rank, arrival));
        Promise<T> result = Promise.promise();
        call.get().onComplete(done -> {
            recorder.completed(communicator.contextId(), sequence, rank, System.nanoTime(), done.cause());
            result.handle(done);
        });
        return result.future();
    }

    private OperationStart describe(Collectives current, Operation operation, int root, long bytes, long sequence) {
        Communicator communicator = current.communicator();
        return OperationStart.describe(communicator.contextId(), sequence, operation, root, bytes, current.plan().epoch(),
                current.plan(), communicator.members());
    }
}
