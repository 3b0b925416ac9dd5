package dev.canopy.multicast.internal.reliable;

import dev.canopy.multicast.internal.fabric.SendOutcome;
import dev.canopy.multicast.internal.loop.OwnerLoop;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.stream.IntStream;

/**
 * This member's own stream, as its root. A broadcast is copied, fragment by fragment, into the sliding
 * window of pre-allocated buffers and its future completes as soon as the last fragment is in: the
 * caller may reuse its buffer at once. Packets leave as credits allow: multicast to everyone, and sent
 * reliably to the co-root children of the root; those that queued while the root was busy leave bundled
 * ({@link Bundler}), several to a datagram. The root collects ACKs from its own leaves only,
 * retransmits to exactly those whose ACK is missing when a packet's timeout passes, and frees buffers
 * then. Owner loop only.
 */
final class RootStream {

    private final Substrate substrate;
    private final LeafWindow window;
    private final DatagramCredits credits;
    private final int[] forwardChildren;
    private final Bundler bundler;
    private final BatchedRetransmitter retransmitter;
    private final ArrayDeque<PendingBroadcast> pending = new ArrayDeque<>();
    private OwnerLoop.Timer retransmitTimer;
    private boolean stalled;
    private boolean flushDue;
    private Throwable failure;

    RootStream(Substrate substrate) {
        this.substrate = substrate;
        CoRootLayout layout = new CoRootLayout(substrate.size, substrate.rank, substrate.subGroupSize);
        int[] leaves = layout.leavesOf(substrate.rank);
        this.window = new LeafWindow(substrate.options.window(), substrate.fabric.mtu(), leaves,
                new RetransmitTimeout(substrate.retransmitNanos));
        int[] reporting = IntStream.concat(IntStream.of(leaves), IntStream.of(layout.coRoots())).toArray();
        this.credits = new DatagramCredits(reporting, substrate.options.creditsPerRoot());
        this.forwardChildren = layout.forwardChildrenOf(substrate.rank);
        this.bundler = new Bundler(substrate.fabric.mtu(), substrate.communicator, substrate.rank);
        this.retransmitter = new BatchedRetransmitter(substrate, window, substrate.rank);
    }

    Future<Void> broadcast(Buffer message) {
        if (failure != null) {
            return Future.failedFuture(failure);
        }
        if (message.length() > substrate.options.maxMessageBytes()) {
            return Future.failedFuture(new IllegalArgumentException("broadcast of " + message.length()
                    + " bytes: the limit is maxMessageBytes = " + substrate.options.maxMessageBytes()));
        }
        PendingBroadcast broadcast = new PendingBroadcast(message, Promise.promise());
        pending.add(broadcast);
        pump();
        return broadcast.promise.future();
    }

    /** FEEDBACK from a leaf of the root's sub-group (ACK and credits) or a co-root (its sub-group's credits). */
    boolean feedback(int from, long ackedUpTo, long creditLimit) {
        boolean known = credits.update(from, creditLimit);
        window.acknowledged(from, ackedUpTo, substrate.loop.nanoTime());
        if (known && failure == null) {
            window.releaseCovered();
            pump();
        }
        return known;
    }

    /** A NAK from a leaf of the root's sub-group: its FEEDBACK, then the missing packets, at once (fast repair). */
    boolean nak(int from, long ackedUpTo, long creditLimit, long missingUpTo) {
        boolean known = feedback(from, ackedUpTo, creditLimit);
        if (known && failure == null) {
            substrate.counters.retransmissions += window.repair(from, missingUpTo, retransmitter);
            window.releaseCovered();
            pump();
        }
        return known;
    }

    int windowInUse() {
        return window.inUse();
    }

    void fail(Throwable cause) {
        if (failure != null) {
            return;
        }
        failure = cause;
        window.clear();
        cancelTimer();
        PendingBroadcast broadcast;
        while ((broadcast = pending.poll()) != null) {
            broadcast.promise.tryFail(cause);
        }
    }

    private void pump() {
        while (failure == null) {
            copyIntoWindow();
            sendOrBundleLater();
            // Freed buffers (a root with no leaves frees at once) let more of a waiting broadcast in.
            if (window.releaseCovered() == 0 || pending.isEmpty()) {
                break;
            }
        }
        armTimer();
    }

    private void copyIntoWindow() {
        while (!pending.isEmpty() && !window.isFull()) {
            PendingBroadcast broadcast = pending.peek();
            int length = broadcast.message.length();
            int fragment = Math.min(substrate.fragmentCapacity, length - broadcast.offset);
            ByteBuffer slot = window.claim();
            PacketCodec.writeData(slot, substrate.communicator, substrate.rank, window.tail(), length,
                    broadcast.offset);
            broadcast.message.getBytes(broadcast.offset, broadcast.offset + fragment, slot.array(),
                    slot.arrayOffset() + PacketCodec.HEADER_BYTES);
            window.commit(PacketCodec.HEADER_BYTES + fragment);
            broadcast.offset += fragment;
            if (broadcast.offset >= length) {
                pending.poll();
                broadcast.promise.tryComplete();
            }
        }
    }

    /**
     * Bundling, as JGroups' transfer-queue bundler does it but on the owner loop instead of a thread of its own: an
     * idle root sends at once, then counts itself busy until the loop comes back to a flush it queues behind the
     * tasks already waiting (the bcasts, ACKs and packets that queued while it sent). Packets that become sendable
     * meanwhile wait in the window and leave together at that flush, bundled up to the MTU; a flush that sent
     * something queues the next one, a flush that found nothing leaves the root idle. So a lone bcast leaves with no
     * added delay, and back-to-back bcasts share datagrams.
     */
    private void sendOrBundleLater() {
        if (!flushDue && sendWithinCredits() > 0) {
            flushDue = true;
            substrate.loop.execute(this::flush);
        }
    }

    private void flush() {
        flushDue = false;
        if (failure == null) {
            pump();
        }
    }

    /** Sends what credits allow (one per datagram), as few datagrams as the MTU allows; returns the datagrams sent. */
    private int sendWithinCredits() {
        long limit = window.tail();
        int datagrams = 0;
        while (window.sent() < limit && credits.available()) {
            int count = bundler.fitting(window, limit);
            ByteBuffer datagram = bundler.datagram(window, count);
            SendOutcome outcome = substrate.fabric.send(substrate.group, datagram.duplicate());
            if (outcome != SendOutcome.SENT) {
                substrate.fail(new IllegalStateException("rank " + substrate.rank + ": the " + substrate.fabric.kind()
                        + " fabric refused a " + datagram.remaining() + "-byte datagram: " + outcome));
                return datagrams;
            }
            for (int child : forwardChildren) {
                substrate.sendReliably(child, datagram);
                substrate.counters.forwards += count;
            }
            credits.spend(window.sent() + count);
            long now = substrate.loop.nanoTime();
            for (int i = 0; i < count; i++) {
                window.markSent(now);
            }
            substrate.counters.packetsMulticast += count;
            datagrams++;
        }
        boolean nowStalled = window.sent() < window.tail();
        if (nowStalled && !stalled) {
            substrate.counters.creditStalls++;
        }
        stalled = nowStalled;
        return datagrams;
    }

    private void armTimer() {
        long deadline = window.nextDeadline();
        if (retransmitTimer == null && deadline != Long.MAX_VALUE && failure == null) {
            retransmitTimer = substrate.loop.schedule(Math.max(0, deadline - substrate.loop.nanoTime()), this::onTimer);
        }
    }

    private void onTimer() {
        retransmitTimer = null;
        if (failure != null) {
            return;
        }
        substrate.counters.retransmissions += window.expire(substrate.loop.nanoTime(), retransmitter);
        pump();
    }

    private void cancelTimer() {
        if (retransmitTimer != null) {
            retransmitTimer.cancel();
            retransmitTimer = null;
        }
    }

    private static final class PendingBroadcast {
        final Buffer message;
        final Promise<Void> promise;
        int offset;

        PendingBroadcast(Buffer message, Promise<Void> promise) {
            this.message = message;
            this.promise = promise;
        }
    }
}
