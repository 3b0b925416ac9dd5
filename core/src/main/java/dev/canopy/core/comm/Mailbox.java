package dev.canopy.core.comm;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Matches what arrives on one channel of one communicator against posted receives, MPI style. An
 * arrival is an eager message or the announcement of a rendezvous message ({@link FlowProtocol}); both
 * match alike. An arrival goes to the earliest posted receive it matches; otherwise it waits in the
 * unexpected queue of its (source, tag) until a receive takes it. A receive takes the earliest-arrived
 * matching arrival. Together with the transport's FIFO per peer this gives FIFO per (source, tag).
 *
 * <p>What happens to a matched arrival (complete the receive, or ask for the body; give the sender its
 * credit back) is the {@link Taker}'s job. The unexpected queue is bounded by the credit senders are
 * given ({@link InboundBudget}), not here; {@link #queuedBytes()} is what it holds.
 *
 * <p>Confined to the owning context; no locking.
 */
final class Mailbox {

    /**
     * An arrival: an eager message ({@code payload} set) or an announcement ({@code payload} null,
     * {@code size} bytes to come under rendezvous id {@code rendezvous}), or an announcement whose body
     * the receiver fetched before any receive took it ({@code payload} set, {@code fetched}). {@code cost}
     * is what it holds of its sender's credit.
     */
    record Incoming(int source, int tag, Buffer payload, int size, long rendezvous, int cost, boolean fetched) {

        static Incoming eager(int source, int tag, Buffer payload, int cost) {
            return new Incoming(source, tag, payload, payload.length(), 0, cost, false);
        }

        static Incoming announced(int source, int tag, int size, long rendezvous) {
            return new Incoming(source, tag, null, size, rendezvous, FlowProtocol.ENVELOPE_COST, false);
        }

        boolean isAnnouncement() {
            return payload == null;
        }

        Incoming withBody(Buffer body) {
            return new Incoming(source, tag, body, size, rendezvous, cost, true);
        }
    }

    /** Completes {@code receive} with a matched arrival (or starts fetching its body). */
    @FunctionalInterface
    interface Taker {
        void take(Incoming incoming, Promise<Message> receive);
    }

    /** A queued arrival; its incoming changes once, when the body of an announcement is fetched. */
    private static final class Arrival {

        private final long order;
        private Incoming incoming;

        Arrival(long order, Incoming incoming) {
            this.order = order;
            this.incoming = incoming;
        }

        long order() {
            return order;
        }

        Incoming incoming() {
            return incoming;
        }
    }

    private record PostedReceive(int source, int tag, Promise<Message> promise) {

        boolean matches(Incoming incoming) {
            return Mailbox.matches(source, tag, incoming);
        }
    }

    private final Taker taker;
    private final Map<Long, ArrayDeque<Arrival>> unexpected = new HashMap<>();
    private final List<PostedReceive> posted = new ArrayList<>();
    private long arrivals;
    private long queuedBytes;

    Mailbox(Taker taker) {
        this.taker = taker;
    }

    /** Something arrived (sources are ranks of the owning communicator): true when it was queued. */
    boolean deliver(Incoming incoming) {
        for (Iterator<PostedReceive> it = posted.iterator(); it.hasNext(); ) {
            PostedReceive receive = it.next();
            if (receive.matches(incoming)) {
                it.remove();
                taker.take(incoming, receive.promise());
                return false;
            }
        }
        unexpected.computeIfAbsent(key(incoming.source(), incoming.tag()), k -> new ArrayDeque<>())
                .add(new Arrival(arrivals++, incoming));
        queuedBytes += incoming.cost();
        return true;
    }

    /**
     * The body of a queued announcement arrived: it keeps its place in the queue, now with its
     * payload. False when no such announcement is queued (a receive has taken it).
     */
    boolean fill(int source, int tag, long rendezvous, Buffer body) {
        ArrayDeque<Arrival> queue = unexpected.get(key(source, tag));
        if (queue != null) {
            for (Arrival arrival : queue) {
                if (arrival.incoming().isAnnouncement() && arrival.incoming().rendezvous() == rendezvous) {
                    arrival.incoming = arrival.incoming().withBody(body);
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Takes a matching queued arrival, or waits for one. {@code failure} says why a source is unusable
     * (null when it is alive); a receive from a failed source fails unless something of it is queued.
     */
    Future<Message> receive(int source, int tag, IntFunction<RankFailedException> failure) {
        Promise<Message> promise = Promise.promise();
        Incoming queued = takeQueued(source, tag);
        if (queued != null) {
            taker.take(queued, promise);
            return promise.future();
        }
        if (source != Communicator.ANY_SOURCE) {
            RankFailedException failed = failure.apply(source);
            if (failed != null) {
                return Future.failedFuture(failed);
            }
        }
        posted.add(new PostedReceive(source, tag, promise));
        return promise.future();
    }

    /**
     * {@code rank} failed: receives naming it fail, and so do receives from any source (they might have
     * been waiting for it; the caller learns which rank failed and may receive again).
     */
    void sourceFailed(int rank, RankFailedException failure) {
        for (Iterator<PostedReceive> it = posted.iterator(); it.hasNext(); ) {
            PostedReceive receive = it.next();
            if (receive.source() == rank || receive.source() == Communicator.ANY_SOURCE) {
                it.remove();
                receive.promise().fail(failure);
            }
        }
    }

    /** Fails every waiting receive (the node is closing). */
    void failAll(RuntimeException failure) {
        List<PostedReceive> waiting = List.copyOf(posted);
        posted.clear();
        waiting.forEach(receive -> receive.promise().fail(failure));
    }

    /** Empties the unexpected queue (the communicator is freed) and returns what it held, in arrival order. */
    List<Incoming> drain() {
        List<Incoming> drained = unexpected.values().stream().flatMap(ArrayDeque::stream)
                .sorted(Comparator.comparingLong(Arrival::order)).map(Arrival::incoming).toList();
        unexpected.clear();
        queuedBytes = 0;
        return drained;
    }

    int queuedMessages() {
        return unexpected.values().stream().mapToInt(ArrayDeque::size).sum();
    }

    /** Queued arrivals that carry their payload (eager messages and fetched bodies). */
    int queuedPayloads() {
        return (int) unexpected.values().stream().flatMap(ArrayDeque::stream)
                .filter(arrival -> !arrival.incoming().isAnnouncement()).count();
    }

    /** The credit cost of everything queued. */
    long queuedBytes() {
        return queuedBytes;
    }

    private Incoming takeQueued(int source, int tag) {
        if (source != Communicator.ANY_SOURCE && tag != Communicator.ANY_TAG) {
            return take(key(source, tag));
        }
        Long earliestKey = null;
        long earliest = Long.MAX_VALUE;
        for (Map.Entry<Long, ArrayDeque<Arrival>> entry : unexpected.entrySet()) {
            Arrival head = entry.getValue().peekFirst();
            if (head != null && head.order() < earliest && matches(source, tag, head.incoming())) {
                earliest = head.order();
                earliestKey = entry.getKey();
            }
        }
        return earliestKey == null ? null : take(earliestKey);
    }

    private Incoming take(long key) {
        ArrayDeque<Arrival> queue = unexpected.get(key);
        if (queue == null) {
            return null;
        }
        Arrival arrival = queue.pollFirst();
        if (queue.isEmpty()) {
            unexpected.remove(key);
        }
        queuedBytes -= arrival.incoming().cost();
        return arrival.incoming();
    }

    private static boolean matches(int source, int tag, Incoming incoming) {
        return (source == Communicator.ANY_SOURCE || source == incoming.source())
                && (tag == Communicator.ANY_TAG || tag == incoming.tag());
    }

    private static long key(int source, int tag) {
        return ((long) source << 32) | (tag & 0xffffffffL);
    }
}
