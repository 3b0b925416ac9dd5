package dev.canopy.core.transport;

import dev.canopy.core.frame.Frame;
import dev.canopy.core.node.NodeLogger;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * Shares one transport between the modules of a node. A transport has one frame handler and one
 * datagram handler; the demultiplexer takes both and hands each incoming frame or datagram to the
 * {@link #port port} of its {@link FrameFamily}. A port is a transport of its own for its module:
 * its handlers receive only its family's traffic, sends go out through the shared transport, and
 * closing it only detaches its handlers (the node closes the shared transport).
 *
 * <p>Traffic of a family whose module has set no handler (probes at a node that does not probe, a
 * frame before the communicators exist) is dropped and logged at debug level; a frame of no family
 * is logged as a warning.
 *
 * <p>Handlers are owned by the shared transport's context, where they also run.
 */
public final class FrameDemux {

    private final Transport shared;
    private final NodeLogger log;
    private final Map<FrameFamily, Port> ports = new EnumMap<>(FrameFamily.class);

    /** Takes over {@code shared}'s frame and datagram handlers. */
    public FrameDemux(Transport shared, Supplier<String> nodeLabel) {
        this.shared = shared;
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

    private void onFrame(Frame frame) {
        FrameFamily.of(frame.type()).ifPresentOrElse(family -> {
            Handler<Frame> handler = ports.get(family).frames;
            if (handler != null) {
                handler.handle(frame);
            } else {
                log.debug("dropped {}: no {} module takes frames on this node", frame, family);
            }
        }, () -> log.warn("dropped {}: no module of this node handles frames of type {}", frame, frame.type()));
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
    private static final class Port extends TransportLayer {

        private final FrameFamily family;
        // Owned by the shared transport's context.
        private Handler<Frame> frames;
        private Handler<Datagram> datagrams;

        Port(Transport shared, FrameFamily family) {
            super(shared);
            this.family = family;
        }

        @Override
        public void frameHandler(Handler<Frame> handler) {
            context().runOnContext(v -> frames = handler);
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
                return Future.succeededFuture();
            });
        }

        @Override
        public String toString() {
            return "FrameDemux.Port[" + family + "]";
        }
    }
}
