package dev.canopy.multicast.internal.link;

import dev.canopy.core.comm.RankFailedException;
import dev.canopy.core.node.NodeId;
import dev.canopy.multicast.internal.loop.OwnerLoop;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Reliable links among the members of one JVM, each owned by its {@link OwnerLoop}: a message is copied
 * at send and handed to the destination's loop after a fixed latency, so messages between one pair
 * arrive in order. A rank marked {@link #fail failed} receives nothing more, and sends to it fail with
 * {@link RankFailedException}, as core's communicators do once membership reports the failure.
 */
public final class InProcessLinks {

    private final List<? extends OwnerLoop> loops;
    private final long latencyNanos;
    private final AtomicReferenceArray<ReliableLink.LinkHandler> handlers;
    private final AtomicReferenceArray<RankFailedException> failures;

    /** @param latencyNanos one-way latency of every message (0: handed over at once) */
    public InProcessLinks(List<? extends OwnerLoop> loops, long latencyNanos) {
        this.loops = List.copyOf(loops);
        this.latencyNanos = latencyNanos;
        this.handlers = new AtomicReferenceArray<>(loops.size());
        this.failures = new AtomicReferenceArray<>(loops.size());
    }

    /** The link of {@code rank}. */
    public ReliableLink link(int rank) {
        return new Link(rank);
    }

    /** {@code rank} has failed: it receives nothing more and sends to it fail naming it. */
    public void fail(int rank, String reason) {
        failures.compareAndSet(rank, null, new RankFailedException(rank, nodeOf(rank), reason));
    }

    /** The node id the in-process members carry in failures: {@code member-<rank>}. */
    public static NodeId nodeOf(int rank) {
        return NodeId.of("member-" + rank);
    }

    private final class Link implements ReliableLink {

        private final int rank;

        Link(int rank) {
            this.rank = rank;
        }

        @Override
        public int rank() {
            return rank;
        }

        @Override
        public int size() {
            return loops.size();
        }

        @Override
        public Future<Void> send(int destination, Buffer payload) {
            if (destination < 0 || destination >= loops.size() || destination == rank) {
                return Future.failedFuture(new IllegalArgumentException("link send from rank " + rank + " to rank "
                        + destination + " of " + loops.size()));
            }
            RankFailedException failure = failures.get(destination);
            if (failure != null) {
                return Future.failedFuture(failure);
            }
            Buffer copy = payload.copy();
            Runnable delivery = () -> {
                ReliableLink.LinkHandler handler = handlers.get(destination);
                if (failures.get(destination) == null && handler != null) {
                    handler.received(rank, copy);
                }
            };
            if (latencyNanos == 0) {
                loops.get(destination).execute(delivery);
            } else {
                loops.get(destination).schedule(latencyNanos, delivery);
            }
            return Future.succeededFuture();
        }

        @Override
        public void handler(LinkHandler handler) {
            handlers.set(rank, handler);
        }
    }
}
