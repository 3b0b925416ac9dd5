package dev.canopy.collectives.internal.multicast;

import dev.canopy.multicast.internal.groups.GroupPolicy;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A persistent allgather of {@link GroupCollectives#allgatherInit}: the size per rank agreed once at init, then each
 * {@link #start} one multicast per member on the communicator's static group ({@code static}), or the point-to-point
 * allgather ({@code tree}), as {@code auto} decided at init.
 */
public final class AllgatherRequest implements AutoCloseable {

    private final GroupCollectives owner;
    private final GroupPolicy policy;
    private final int bytesPerRank;
    private final AtomicBoolean closed = new AtomicBoolean();

    AllgatherRequest(GroupCollectives owner, GroupPolicy policy, int bytesPerRank) {
        this.owner = owner;
        this.policy = policy;
        this.bytesPerRank = bytesPerRank;
    }

    public GroupPolicy policy() {
        return policy;
    }

    /** Every member's {@code data} ({@code bytesPerRank} bytes) to every member, by rank. */
    public Future<List<Buffer>> start(Buffer data) {
        if (closed.get()) {
            throw new IllegalStateException("this persistent allgather was closed; init a new one to start it again");
        }
        if (data == null || data.length() != bytesPerRank) {
            throw new IllegalArgumentException("this persistent allgather carries " + bytesPerRank + " bytes per rank; rank "
                    + owner.communicator().rank() + " gave " + (data == null ? "none" : data.length()));
        }
        return owner.call(operation -> owner.allgatherOn(operation, policy, data));
    }

    /** No more starts (the static group stays the communicator's). Idempotent. */
    @Override
    public void close() {
        closed.set(true);
    }
}
