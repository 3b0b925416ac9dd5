package dev.canopy.core.comm;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Matches incoming messages of one channel of one communicator against posted receives, MPI style.
 * A message goes to the earliest posted receive it matches; otherwise it waits in the unexpected
 * queue of its (source, tag) until a receive takes it. A receive takes the earliest-arrived matching
 * message. Together with the transport's FIFO per peer this gives FIFO per (source, tag).
 *
 * <p>The unexpected queue is not bounded here: its size is what senders have sent and nobody has
 * received yet (each sender's transport bounds only its own in-flight bytes per peer).
 *
 * <p>Confined to the owning context; no locking.
 */
final class Mailbox {

    private record Arrival(long order, Message message) {
    }

    private record PostedReceive(int source, int tag, Promise<Message> promise) {

        boolean matches(Message message) {
            return Mailbox.matches(source, tag, message);
        }
    }

    private final Map<Long, ArrayDeque<Arrival>> unexpected = new HashMap<>();
    private final List<PostedReceive> posted = new ArrayList<>();
    private long arrivals;

    /** A message arrived (sources are ranks of the owning communicator). */
    void deliver(Message message) {
        for (Iterator<PostedReceive> it = posted.iterator(); it.hasNext(); ) {
            PostedReceive receive = it.next();
            if (receive.matches(message)) {
                it.remove();
                receive.promise().complete(message);
                return;
            }
        }
        unexpected.computeIfAbsent(key(message.source(), message.tag()), k -> new ArrayDeque<>())
                .add(new Arrival(arrivals++, message));
    }

    /**
     * Takes a matching queued message, or waits for one. {@code failure} says why a source is unusable
     * (null when it is alive); a receive from a failed source fails unless a message of it is queued.
     */
    Future<Message> receive(int source, int tag, IntFunction<RankFailedException> failure) {
        Message queued = takeQueued(source, tag);
        if (queued != null) {
            return Future.succeededFuture(queued);
        }
        if (source != Communicator.ANY_SOURCE) {
            RankFailedException failed = failure.apply(source);
            if (failed != null) {
                return Future.failedFuture(failed);
            }
        }
        Promise<Message> promise = Promise.promise();
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

    int queuedMessages() {
        return unexpected.values().stream().mapToInt(ArrayDeque::size).sum();
    }

    private Message takeQueued(int source, int tag) {
        if (source != Communicator.ANY_SOURCE && tag != Communicator.ANY_TAG) {
            return take(key(source, tag));
        }
        Long earliestKey = null;
        long earliest = Long.MAX_VALUE;
        for (Map.Entry<Long, ArrayDeque<Arrival>> entry : unexpected.entrySet()) {
            Arrival head = entry.getValue().peekFirst();
            if (head != null && head.order() < earliest && matches(source, tag, head.message())) {
                earliest = head.order();
                earliestKey = entry.getKey();
            }
        }
        return earliestKey == null ? null : take(earliestKey);
    }

    private Message take(long key) {
        ArrayDeque<Arrival> queue = unexpected.get(key);
        if (queue == null) {
            return null;
        }
        Arrival arrival = queue.pollFirst();
        if (queue.isEmpty()) {
            unexpected.remove(key);
        }
        return arrival.message();
    }

    private static boolean matches(int source, int tag, Message message) {
        return (source == Communicator.ANY_SOURCE || source == message.source())
                && (tag == Communicator.ANY_TAG || tag == message.tag());
    }

    private static long key(int source, int tag) {
        return ((long) source << 32) | (tag & 0xffffffffL);
    }
}
