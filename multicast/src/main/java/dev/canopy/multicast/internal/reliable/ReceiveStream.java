package dev.canopy.multicast.internal.reliable;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.TreeMap;

/**
 * One root's stream as seen by another member. Packets come by multicast or over the reliable link
 * (forwards, retransmissions), in any order and possibly more than once: a packet below the next
 * expected sequence number, or one already queued, is a duplicate and dropped; a higher one waits in
 * the gap queue, and a leaf asks its parent for the packets missing before it at once (NAK, fast repair);
 * messages are reassembled and delivered strictly in order. The member reports its
 * progress and credits to its parent ({@link FeedbackSender}) and, if it is a co-root of this root,
 * does that duty too ({@link CoRootDuty}). Owner loop only.
 */
final class ReceiveStream implements FeedbackSender.Progress {

    /** A packet this far beyond the next expected one cannot come from a correct root. */
    private static final long MAX_AHEAD = 1L << 24;

    private final Substrate substrate;
    private final int root;
    private final CoRootDuty coRoot;
    private final FeedbackSender feedback;
    private final Reassembly reassembly = new Reassembly();
    private final TreeMap<Long, ByteBuffer> gaps = new TreeMap<>();
    private final ArrayDeque<Buffer> delivered = new ArrayDeque<>();
    private final ArrayDeque<Promise<Buffer>> waiting = new ArrayDeque<>();
    private long next;
    private long seenUpTo;
    private long messagesDelivered;
    private Throwable failure;

    ReceiveStream(Substrate substrate, int root) {
        this.substrate = substrate;
        this.root = root;
        CoRootLayout layout = new CoRootLayout(substrate.size, root, substrate.subGroupSize);
        this.coRoot = layout.isHead(substrate.rank) ? new CoRootDuty(substrate, layout) : null;
        this.feedback = new FeedbackSender(substrate, root, layout.parentOf(substrate.rank), this);
    }

    /** The next message of this root, in order. */
    Future<Buffer> receive() {
        Buffer message = delivered.poll();
        if (message != null) {
            return Future.succeededFuture(message);
        }
        if (failure != null) {
            return Future.failedFuture(failure);
        }
        Promise<Buffer> promise = Promise.promise();
        waiting.add(promise);
        return promise.future();
    }

    /** A validated DATA packet of this root (alone or out of a BATCH); read before returning (the caller re-posts its buffer). */
    void accept(ByteBuffer packet) {
        if (failure != null) {
            return;
        }
        long sequence = PacketCodec.sequence(packet);
        if (sequence < next || gaps.containsKey(sequence)) {
            substrate.counters.duplicatesDropped++;
            return;
        }
        if (sequence - next > MAX_AHEAD) {
            substrate.counters.malformedDropped++;
            return;
        }
        seenUpTo = Math.max(seenUpTo, sequence + 1);
        if (coRoot != null) {
            coRoot.forward(packet);
        }
        if (sequence != next) {
            gaps.put(sequence, copy(packet));
            reportHoleOr(false);
            return;
        }
        boolean ackPoint = consume(packet);
        ByteBuffer queued;
        while (failure == null && (queued = gaps.remove(next)) != null) {
            ackPoint |= consume(queued);
        }
        if (failure == null) {
            reportHoleOr(ackPoint);
        }
    }

    /**
     * A leaf with packets queued behind a hole asks for the hole's packets at once (a head needs not: its parent
     * sends it every packet reliably anyway); otherwise progress is reported as usual.
     */
    private void reportHoleOr(boolean ackPoint) {
        if (coRoot == null && !gaps.isEmpty()) {
            feedback.gap(next, gaps.firstKey(), creditLimit());
        }
        feedback.progress(next, creditLimit(), ackPoint);
    }

    /** FEEDBACK from one of this co-root's leaves; false when this member is not the sender's co-root. */
    boolean leafFeedback(int from, long ackedUpTo, long creditLimit) {
        if (coRoot == null || failure != null || !coRoot.leafFeedback(from, ackedUpTo, creditLimit)) {
            return false;
        }
        feedback.progress(next, creditLimit(), false);
        return true;
    }

    /** A NAK from one of this co-root's leaves: its FEEDBACK, then the missing packets this co-root holds. */
    boolean leafNak(int from, long ackedUpTo, long creditLimit, long missingUpTo) {
        if (!leafFeedback(from, ackedUpTo, creditLimit)) {
            return false;
        }
        coRoot.repair(from, missingUpTo);
        return true;
    }

    @Override
    public long ackedUpTo() {
        return next;
    }

    /** What may be sent to this member, and for a co-root to its whole sub-group. */
    @Override
    public long creditLimit() {
        long own = seenUpTo + substrate.options.creditsPerRoot();
        return coRoot == null ? own : Math.min(own, coRoot.leafCreditLimit());
    }

    int windowInUse() {
        return coRoot == null ? 0 : coRoot.windowInUse();
    }

    /** Fails the receives waiting now and every later one once the delivered messages are taken. */
    void fail(Throwable cause) {
        if (failure != null) {
            return;
        }
        failure = cause;
        gaps.clear();
        feedback.cancel();
        if (coRoot != null) {
            coRoot.fail();
        }
        Promise<Buffer> promise;
        while ((promise = waiting.poll()) != null) {
            promise.tryFail(cause);
        }
    }

    int queuedMessages() {
        return delivered.size();
    }

    /** Takes the next packet in order; returns whether it completed a message at this receiver's ACK point. */
    private boolean consume(ByteBuffer packet) {
        next++;
        if (coRoot != null) {
            coRoot.hold(packet);
        }
        Buffer complete;
        try {
            complete = reassembly.add(packet, root);
        } catch (IllegalStateException broken) {
            substrate.fail(broken);
            return false;
        }
        if (complete == null) {
            return false;
        }
        deliver(complete);
        return feedback.isAckPoint(messagesDelivered++);
    }

    private void deliver(Buffer message) {
        Promise<Buffer> promise = waiting.poll();
        if (promise != null) {
            promise.complete(message);
        } else {
            delivered.add(message);
        }
    }

    private static ByteBuffer copy(ByteBuffer packet) {
        byte[] bytes = new byte[packet.remaining()];
        packet.get(packet.position(), bytes);
        return ByteBuffer.wrap(bytes);
    }
}
