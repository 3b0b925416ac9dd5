package dev.canopy.collectives.soak;

import dev.canopy.core.internal.emulation.DelayScheduler;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.transport.OwnerContext;
import dev.canopy.core.transport.PeerUnavailableException;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportLayer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Packet loss as a TCP connection lives it: a frame travels as segments of {@value #SEGMENT_BYTES} bytes
 * (an Ethernet MSS), each lost with a seeded probability; a frame with a lost segment arrives one
 * retransmission timeout later (selective acknowledgements recover all of its lost segments in that one
 * round), and every later frame to the same peer waits behind it (head-of-line blocking). So a 64 KiB
 * frame is delayed far more often than a heartbeat, as on a real lossy link. Frames are never dropped,
 * duplicated or reordered: the reliable transport's contract holds while its timing suffers. Datagrams
 * pass through (a datagram loss layer drops those). State lives on the transport's context.
 *
 * <p>Time comes from a {@link NanoClock} and retransmissions are woken by a {@link DelayScheduler} on that clock,
 * both injected so that a test moves time instead of waiting; by default the system clock and Vert.x timers.
 */
final class RetransmissionLayer extends TransportLayer {

    private record Waiting(Member to, Frame frame, long dueNanos, Promise<Void> sent) {
    }

    static final int SEGMENT_BYTES = 1448;

    private final double rate;
    private final long timeoutNanos;
    private final NanoClock clock;
    private final DelayScheduler wakeUps;
    private final SplittableRandom random;
    private final LossCounts counts;
    /** Per peer, frames behind a lost one, in sending order; absent when nothing waits. */
    private final Map<NodeId, ArrayDeque<Waiting>> waiting = new HashMap<>();

    /** Frames sent and frames lost (retransmitted), summed over every layer sharing the instance. */
    static final class LossCounts {
        final AtomicLong frames = new AtomicLong();
        final AtomicLong segments = new AtomicLong();
        final AtomicLong lostSegments = new AtomicLong();
        final AtomicLong delayedFrames = new AtomicLong();

        @Override
        public String toString() {
            return lostSegments.get() + " of " + segments.get() + " segments lost; " + delayedFrames.get() + " of "
                    + frames.get() + " frames retransmitted";
        }
    }

    RetransmissionLayer(Transport below, double rate, long retransmissionTimeoutMs, long seed, LossCounts counts) {
        this(below, rate, retransmissionTimeoutMs, seed, counts, NanoClock.SYSTEM, null);
    }

    /** @param wakeUps runs a release at its deadline of {@code clock}; null for Vert.x timers on the system clock */
    RetransmissionLayer(Transport below, double rate, long retransmissionTimeoutMs, long seed, LossCounts counts,
            NanoClock clock, DelayScheduler wakeUps) {
        super(below);
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException("loss rate " + rate + " must be a probability between 0 and 1");
        }
        this.rate = rate;
        this.timeoutNanos = retransmissionTimeoutMs * 1_000_000;
        this.random = new SplittableRandom(seed);
        this.counts = counts;
        this.clock = clock;
        this.wakeUps = wakeUps != null ? wakeUps : new VertxTimers(below, clock);
    }

    /** Wake-ups on the transport's Vert.x timers, rounded up to whole milliseconds of {@code clock}. */
    private record VertxTimers(Transport transport, NanoClock clock) implements DelayScheduler {

        @Override
        public void schedule(long deadlineNanos, Runnable task) {
            long delayMs = Math.max(1, (deadlineNanos - clock.nanoTime() + 999_999) / 1_000_000);
            transport.context().owner().setTimer(delayMs, id -> task.run());
        }

        @Override
        public void close() {
        }
    }

    @Override
    public Future<Void> send(Member to, Frame frame) {
        return OwnerContext.call(context(), () -> {
            boolean lost = loseSegmentsOf(frame);
            ArrayDeque<Waiting> queue = waiting.get(to.id());
            if (queue == null && !lost) {
                return below.send(to, frame);
            }
            Promise<Void> sent = Promise.promise();
            long due = clock.nanoTime() + (lost ? timeoutNanos : 0);
            if (queue == null) {
                queue = new ArrayDeque<>();
                waiting.put(to.id(), queue);
                wakeAt(to.id(), due);
            }
            queue.add(new Waiting(to, frame, due, sent));
            return sent.future();
        });
    }

    /** Draws the loss of each of the frame's segments; true if any was lost. */
    private boolean loseSegmentsOf(Frame frame) {
        int segments = Math.max(1, (frame.encodedLength() + SEGMENT_BYTES - 1) / SEGMENT_BYTES);
        int lostSegments = 0;
        for (int i = 0; i < segments; i++) {
            if (random.nextDouble() < rate) {
                lostSegments++;
            }
        }
        counts.frames.incrementAndGet();
        counts.segments.addAndGet(segments);
        counts.lostSegments.addAndGet(lostSegments);
        if (lostSegments > 0) {
            counts.delayedFrames.incrementAndGet();
        }
        return lostSegments > 0;
    }

    /** Sends the frames to {@code peer} whose time has come, in order, stopping at the first still in retransmission. */
    private void release(NodeId peer) {
        ArrayDeque<Waiting> queue = waiting.get(peer);
        if (queue == null) {
            return;
        }
        long now = clock.nanoTime();
        while (!queue.isEmpty() && queue.peek().dueNanos() - now <= 0) {
            Waiting next = queue.poll();
            below.send(next.to(), next.frame()).onComplete(next.sent());
        }
        if (queue.isEmpty()) {
            waiting.remove(peer);
        } else {
            wakeAt(peer, queue.peek().dueNanos());
        }
    }

    private void wakeAt(NodeId peer, long dueNanos) {
        wakeUps.schedule(dueNanos, () -> context().runOnContext(v -> release(peer)));
    }

    @Override
    public Future<Void> close() {
        return OwnerContext.call(context(), () -> {
            waiting.values().forEach(queue -> queue.forEach(w -> w.sent().fail(new PeerUnavailableException(
                    w.to().id(), "the local transport closed while the frame awaited retransmission (RetransmissionLayer)"))));
            waiting.clear();
            return below.close();
        });
    }

    @Override
    public String toString() {
        return "RetransmissionLayer[rate=" + rate + " rto=" + timeoutNanos / 1_000_000 + " ms] over " + below;
    }
}
