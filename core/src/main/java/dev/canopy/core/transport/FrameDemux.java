package dev.canopy.core.transport;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.node.NodeLogger;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * Shares one transport between the modules of a node. A transport has one frame handler and one
 * datagram handler; the demultiplexer takes both and hands each incoming frame or datagram to the
 * {@link #port port} of its {@link FrameFamily}. A port is a transport of its own for its module:
 * its handlers receive only its family's traffic, sends go out through the shared transport, and
 * closing it only detaches its handlers (the node closes the shared transport).
 *
 * <p>Frames of a family whose module has not set its handler yet wait for it when the family
 * {@link FrameFamily#waitsForItsModule() says so} (a peer that passed the start barrier first may
 * send before this node's communicators exist), up to a bound of payload bytes per peer (by the
 * frame's source rank) and in total, beyond which they are dropped, counted and logged as an error
 * at most once a second. Communicator senders stay far below the bound on their own: before a
 * receiver's communicators exist it has granted them no credit beyond their initial credit (see
 * {@code dev.canopy.core.comm.FlowProtocol}), so only a sender ignoring the protocol loses frames here.
 * Other traffic of a family
 * without a handler (probes at a node that does not probe) and everything after a port closed is
 * dropped and logged at debug level; a frame of no family is logged as a warning.
 *
 * <p>Handlers are owned by the shared transport's context, where they also run.
 */
public final class FrameDemux {

    private final Transport shared;
    private final NodeLogger log;
    private final Map<FrameFamily, Port> ports = new EnumMap<>(FrameFamily.class);
    private final long waitingBytesPerPeer;
    private final long waitingBytesTotal;
    // Owned by the shared transport's context.
    /** Payload bytes waiting in every port, in total and by source rank. */
    private long waitingBytes;
    private final Map<Integer, Long> waitingBytesBySource = new HashMap<>();
    private long droppedFrames;
    private long droppedSinceLog;
    private long lastDropLog;

    /**
     * Takes over {@code shared}'s frame and datagram handlers. Frames waiting for their module may
     * hold {@code waitingBytesPerPeer} payload bytes per source and {@code waitingBytesTotal} in all.
     */
    public FrameDemux(Transport shared, Supplier<String> nodeLabel, long waitingBytesPerPeer, long waitingBytesTotal) {
        if (waitingBytesPerPeer < 0 || waitingBytesTotal < waitingBytesPerPeer) {
            throw new IllegalArgumentException("waiting frame bounds: " + waitingBytesPerPeer + " bytes per peer and "
                    + waitingBytesTotal + " in total; give 0 or more per peer and at least as much in total");
        }
        this.shared = shared;
        this.waitingBytesPerPeer = waitingBytesPerPeer;
        this.waitingBytesTotal = waitingBytesTotal;
        this.log = new NodeLogger(LoggerFactory.getLogger(FrameDemux.class), nodeLabel);
        for (FrameFamily family : FrameFamily.values()) {
            ports.put(family, new Port(shared, family));
        }
        shared.frameHandler(this::onFrame);
        shared.datagramHandler(this::onDatagram);
    }

    /** The transport of {@code family}'s module. */
    public Transport port(FrameFamily family) {
        return ports.get(family);
    }

    /** How many frames of {@code family} wait for its module's handler; call on the shared transport's context. */
    int waitingFrames(FrameFamily family) {
        return ports.get(family).waiting.size();
    }

    /** Frames dropped because the waiting bounds were reached; call on the shared transport's context. */
    long droppedFrames() {
        return droppedFrames;
    }

    private void onFrame(Frame frame) {
        FrameFamily.of(frame.type()).ifPresentOrElse(family -> {
            Port port = ports.get(family);
            if (port.frames != null) {
                port.frames.handle(frame);
            } else if (port.closed || !family.waitsForItsModule()) {
                log.debug("dropped {}: no {} module takes frames on this node", frame, family);
            } else {
                park(port, frame);
            }
        }, () -> log.warn("dropped {}: no module of this node handles frames of type {}", frame, frame.type()));
    }

    private void park(Port port, Frame frame) {
        int length = frame.payload().length();
        long fromSource = waitingBytesBySource.getOrDefault(frame.source(), 0L);
        if (fromSource + length <= waitingBytesPerPeer && waitingBytes + length <= waitingBytesTotal) {
            port.waiting.add(frame);
            waitingBytesBySource.put(frame.source(), fromSource + length);
            waitingBytes += length;
            return;
        }
        droppedFrames++;
        droppedSinceLog++;
        long now = System.nanoTime();
        if (lastDropLog == 0 || now - lastDropLog >= TimeUnit.SECONDS.toNanos(1)) {
            log.error("dropped {} frame(s) ({} in all), latest {}: {} bytes from rank {} ({} allowed) and {} in all ({}"
                    + " allowed) already wait for this node's {} module to start", droppedSinceLog, droppedFrames, frame,
                    fromSource, frame.source(), waitingBytesPerPeer, waitingBytes, waitingBytesTotal, port.family);
            lastDropLog = now;
            droppedSinceLog = 0;
        }
    }

    /** {@code frames} stopped waiting (handed to their module, or discarded). */
    private void unpark(List<Frame> frames) {
        for (Frame frame : frames) {
            int length = frame.payload().length();
            waitingBytes -= length;
            waitingBytesBySource.computeIfPresent(frame.source(), (source, bytes) -> bytes == length ? null
                    : bytes - length);
        }
    }

    private void onDatagram(Datagram datagram) {
        FrameFamily.of(datagram.frame().type()).ifPresentOrElse(family -> {
            Handler<Datagram> handler = ports.get(family).datagrams;
            if (handler != null) {
                handler.handle(datagram);
            } else {
                log.debug("dropped {} from {}: no {} module takes datagrams on this node", datagram.frame(),
                        datagram.sender(), family);
            }
        }, () -> log.warn("dropped {} from {}: no module of this node handles datagrams of type {}", datagram.frame(),
                datagram.sender(), datagram.frame().type()));
    }

    /** One family's view of the shared transport. */
    private final class Port extends TransportLayer {

        private final FrameFamily family;
        // Owned by the shared transport's context.
        private Handler<Frame> frames;
        private Handler<Datagram> datagrams;
        /** Frames that arrived before {@link #frames} was set, in arrival order. */
        private final List<Frame> waiting = new ArrayList<>();
        private boolean closed;

        Port(Transport shared, FrameFamily family) {
            super(shared);
            this.family = family;
        }

        @Override
        public void frameHandler(Handler<Frame> handler) {
            context().runOnContext(v -> {
                frames = handler;
                if (handler != null && !waiting.isEmpty()) {
                    List<Frame> early = List.copyOf(waiting);
                    waiting.clear();
                    unpark(early);
                    early.forEach(handler::handle);
                }
            });
        }

        @Override
        public void datagramHandler(Handler<Datagram> handler) {
            context().runOnContext(v -> datagrams = handler);
        }

        /** Detaches this port's handlers; the shared transport stays open. */
        @Override
        public Future<Void> close() {
            return OwnerContext.call(context(), () -> {
                frames = null;
                datagrams = null;
                closed = true;
                unpark(waiting);
                waiting.clear();
                return Future.succeededFuture();
            });
        }

        @Override
        public String toString() {
            return "FrameDemux.Port[" + family + "]";
        }
    }
}
