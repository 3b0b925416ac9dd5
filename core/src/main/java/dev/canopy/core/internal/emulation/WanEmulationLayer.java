package dev.canopy.core.internal.emulation;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeLogger;
import dev.canopy.core.transport.BackPressureException;
import dev.canopy.core.transport.Datagram;
import dev.canopy.core.transport.OwnerContext;
import dev.canopy.core.transport.PeerUnavailableException;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportLayer;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import org.slf4j.LoggerFactory;

/**
 * Delays, throttles and (for datagrams) drops this node's traffic to other sites as the shared
 * {@link WanEmulator} says, so a multi-site grid runs on one machine without root. Traffic inside
 * the node's own site passes straight through.
 *
 * <p>Everything happens at the sender: a message to another site waits for its uplink and link
 * (bandwidth), then propagates for half the link's RTT plus jitter before the layer below sends
 * it. Reliable frames to one peer are never reordered by jitter: each is delivered no earlier
 * than the previous one. The send future completes when the message has left the emulated link,
 * as a real socket write completes once the bytes are in the kernel; a failure of the delayed
 * send below is logged. Datagrams are dropped with the link's loss probability (seeded). Reliable frames
 * beyond the node's queue limit ({@link WanEmulation#queueLimitBytesPerNode}) wait their turn, as on a
 * real uplink, and {@link #drained} waits until the queue is under it; datagrams beyond it are refused.
 *
 * <p>State is owned by the context of the transport below.
 */
public final class WanEmulationLayer extends TransportLayer {

    private final WanEmulator emulator;
    private final String localSite;
    private final SplittableRandom random;
    private final long seed;
    private final NodeLogger log;
    private final Map<NodeId, Long> lastArrival = new HashMap<>();
    private final Map<NodeId, ArrayDeque<Frame>> inFlight = new HashMap<>();
    private final Map<NodeId, String> gone = new HashMap<>();
    private long queuedBytes;
    private Promise<Void> drained;
    /** Producers waiting for {@link #queuedBytes} to drop under the limit. */
    private final List<Promise<Void>> roomWaiters = new ArrayList<>();

    /**
     * @param below     the transport that really sends
     * @param emulator  the WAN shared by all nodes of this JVM
     * @param local     this node's coordinates; their site decides which traffic is emulated
     * @param seed      seeds jitter and datagram loss, for reproducible runs
     */
    public WanEmulationLayer(Transport below, WanEmulator emulator, Coordinates local, long seed) {
        super(below);
        this.emulator = Objects.requireNonNull(emulator, "emulator");
        this.localSite = local.site();
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.log = new NodeLogger(LoggerFactory.getLogger(WanEmulationLayer.class), local.toString());
        emulator.addReceiver(below.localAddress());
    }

    @Override
    public void frameHandler(Handler<Frame> handler) {
        NodeAddress local = below.localAddress();
        below.frameHandler(frame -> {
            emulator.arrived(WanEmulator.Hop.FRAME, local, frame);
            handler.handle(frame);
        });
    }

    @Override
    public void datagramHandler(Handler<Datagram> handler) {
        NodeAddress local = below.localAddress();
        below.datagramHandler(datagram -> {
            emulator.arrived(WanEmulator.Hop.DATAGRAM, local, datagram.frame());
            handler.handle(datagram);
        });
    }

    /**
     * Closes after the reliable frames still crossing the emulated WAN have been handed on: a node that leaves
     * says goodbye and then closes, and on a real WAN the goodbye reaches the peer before the connection's close
     * does. Closing at once would let the close overtake the goodbye, and peers would judge a clean leave a
     * failure. Waits at most until the last frame's arrival plus a second.
     */
    @Override
    public Future<Void> close() {
        emulator.removeReceiver(below.localAddress());
        return OwnerContext.call(context(), this::reliableFramesDelivered).compose(v -> super.close());
    }

    private Future<Void> reliableFramesDelivered() {
        if (inFlight.isEmpty()) {
            return Future.succeededFuture();
        }
        if (drained == null) {
            drained = Promise.promise();
            long now = emulator.clock().nanoTime();
            long untilLast = inFlight.keySet().stream().mapToLong(peer -> lastArrival.get(peer) - now).max().orElse(0);
            long waitNanos = Math.max(0, untilLast) + 1_000_000_000L;
            context().owner().setTimer(Math.max(1, waitNanos / 1_000_000), id -> drained.tryComplete());
        }
        return drained.future();
    }

    @Override
    public Future<Void> send(Member to, Frame frame) {
        return OwnerContext.call(context(), () -> emulate(to, frame, Delivery.RELIABLE));
    }

    @Override
    public Future<Void> sendDatagram(Member to, Frame frame) {
        return OwnerContext.call(context(), () -> emulate(to, frame, Delivery.DATAGRAM));
    }

    /** Under the emulated links' queue limit of this node, then under the real transport's limit for {@code to}. */
    @Override
    public Future<Void> drained(Member to) {
        return OwnerContext.call(context(), () -> {
            if (to.coordinates().site().equals(localSite) || queuedBytes < emulator.config().queueLimitBytesPerNode()) {
                return Future.succeededFuture();
            }
            Promise<Void> room = Promise.promise();
            roomWaiters.add(room);
            return room.future();
        }).compose(v -> below.drained(to));
    }

    @Override
    public void peerGone(NodeId peer, String reason) {
        context().runOnContext(v -> gone.put(peer, reason));
        super.peerGone(peer, reason);
    }

    @Override
    public void peerBack(NodeId peer) {
        context().runOnContext(v -> gone.remove(peer));
        super.peerBack(peer);
    }

    @Override
    public String toString() {
        return "WanEmulationLayer[site=" + localSite + " seed=" + seed + "] over " + below;
    }

    private enum Delivery {
        RELIABLE(WanEmulator.Hop.FRAME),
        DATAGRAM(WanEmulator.Hop.DATAGRAM);

        final WanEmulator.Hop hop;

        Delivery(WanEmulator.Hop hop) {
            this.hop = hop;
        }
    }

    private Future<Void> emulate(Member to, Frame frame, Delivery delivery) {
        String toSite = to.coordinates().site();
        if (toSite.equals(localSite)) {
            return delivery == Delivery.RELIABLE ? below.send(to, frame) : below.sendDatagram(to, frame);
        }
        String goneReason = gone.get(to.id());
        if (goneReason != null) {
            return Future.failedFuture(new PeerUnavailableException(to.id(), goneReason));
        }
        int bytes = frame.encodedLength();
        long limit = emulator.config().queueLimitBytesPerNode();
        if (delivery == Delivery.DATAGRAM && queuedBytes > 0 && queuedBytes + bytes > limit) {
            return Future.failedFuture(new BackPressureException(to.id(), queuedBytes, "emulated links of site "
                    + localSite + " are busy: over the limit of " + limit + " bytes (WanEmulation.queueLimitBytesPerNode)"));
        }
        LinkProfile profile = emulator.config().link(localSite, toSite);
        long departed = emulator.transmit(localSite, toSite, bytes);
        long arrival = departed + oneWayDelayNanos(profile);
        if (delivery == Delivery.RELIABLE) {
            Long previous = lastArrival.get(to.id());
            if (previous != null && arrival - previous < 0) {
                arrival = previous;
            }
            lastArrival.put(to.id(), arrival);
        } else if (profile.loss() > 0 && random.nextDouble() < profile.loss()) {
            log.debug("emulated loss of datagram {} to {} (seed {})", frame, to.id(), seed);
            return Future.succeededFuture();
        }
        if (delivery == Delivery.RELIABLE) {
            // Each timer delivers the oldest frame in flight to the peer, so FIFO holds even if
            // two timers with equal deadlines fire in another order.
            inFlight.computeIfAbsent(to.id(), id -> new ArrayDeque<>()).add(frame);
            at(arrival, delivery.hop, () -> deliverOldest(to));
        } else {
            at(arrival, delivery.hop, () -> deliver(to, frame, delivery));
        }
        if (departed - emulator.clock().nanoTime() <= 0) {
            return Future.succeededFuture();
        }
        queuedBytes += bytes;
        Promise<Void> leftLink = Promise.promise();
        at(departed, WanEmulator.Hop.LOCAL, () -> {
            queuedBytes -= bytes;
            leftLink.complete();
            if (!roomWaiters.isEmpty() && queuedBytes < limit) {
                List<Promise<Void>> waiters = List.copyOf(roomWaiters);
                roomWaiters.clear();
                waiters.forEach(Promise::complete);
            }
        });
        return leftLink.future();
    }

    private void deliverOldest(Member to) {
        ArrayDeque<Frame> frames = inFlight.get(to.id());
        Frame oldest = frames.poll();
        if (frames.isEmpty()) {
            inFlight.remove(to.id());
        }
        deliver(to, oldest, Delivery.RELIABLE);
        if (inFlight.isEmpty() && drained != null) {
            drained.tryComplete();
        }
    }

    private void deliver(Member to, Frame frame, Delivery delivery) {
        emulator.sending(delivery.hop, to.address(), frame);
        Future<Void> sent = delivery == Delivery.RELIABLE ? below.send(to, frame) : below.sendDatagram(to, frame);
        sent.onFailure(e -> lostAfterDelay(to, frame, e));
    }

    /**
     * A frame the emulated WAN held could not be handed on. When the peer is gone or this node is closing
     * that is the ordinary end of a job (heartbeats and goodbyes still in flight), so only the unexpected is
     * a warning; failure detection and the senders' next sends report departed peers.
     */
    private void lostAfterDelay(Member to, Frame frame, Throwable cause) {
        if (cause instanceof PeerUnavailableException) {
            log.debug("{} to {} lost after its emulated WAN delay: {}", frame, to.id(), cause.getMessage());
        } else {
            log.warn("{} to {} lost after its emulated WAN delay: {}", frame, to.id(), cause.getMessage());
        }
    }

    /** Runs {@code task} on this layer's context so that its effect happens at {@code deadline}. */
    private void at(long deadline, WanEmulator.Hop hop, Runnable task) {
        emulator.runAt(context(), deadline, hop, task);
    }

    private long oneWayDelayNanos(LinkProfile profile) {
        double oneWayMs = profile.rttMs() / 2;
        if (profile.jitterMs() > 0) {
            oneWayMs = Math.max(0, oneWayMs + (random.nextDouble() - 0.5) * profile.jitterMs());
        }
        return Math.round(oneWayMs * 1_000_000);
    }
}
