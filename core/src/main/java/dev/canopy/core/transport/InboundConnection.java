package dev.canopy.core.transport;

import dev.canopy.core.frame.Frame;
import dev.canopy.core.frame.FrameStreamDecoder;
import dev.canopy.core.frame.FrameType;
import dev.canopy.core.frame.MalformedFrame;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeLogger;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.util.Optional;

/**
 * A connection a peer opened to us: decodes its frames and hands them up. Its first frame must be
 * a {@link Hello} naming the peer's address. Malformed input closes this connection only, with the
 * reason logged.
 *
 * <p>Owned by the transport's context.
 */
final class InboundConnection {

    /** What the transport learns about the connection. */
    interface Events {

        /** The peer said who it is. */
        void greeted(InboundConnection connection, NodeAddress peer);

        /** The connection closed; {@code peer} is empty when it never said a valid HELLO. */
        void closed(InboundConnection connection, Optional<NodeAddress> peer);
    }

    private final NetSocket socket;
    private final FrameStreamDecoder decoder;
    private final Handler<Frame> upward;
    private final Events events;
    private final NodeLogger log;
    private String peerName;
    private Optional<NodeAddress> peer = Optional.empty();
    private boolean rejected;

    InboundConnection(NetSocket socket, int maxFrameBytes, Handler<Frame> upward, Events events, NodeLogger log) {
        this.socket = socket;
        this.decoder = new FrameStreamDecoder(maxFrameBytes);
        this.upward = upward;
        this.events = events;
        this.log = log;
        this.peerName = String.valueOf(socket.remoteAddress());
    }

    void start() {
        socket.handler(this::onBytes);
        socket.endHandler(v -> {
            if (!rejected) {
                decoder.endOfStream().ifPresent(problem -> log.warn("connection from {}: {}", peerName, problem));
            }
        });
        socket.exceptionHandler(e -> log.debug("connection from {}: {}", peerName, e.toString()));
        // Vert.x reports the close after the last bytes read have gone through onBytes.
        socket.closeHandler(v -> events.closed(this, peer));
    }

    void close() {
        socket.close();
    }

    private void onBytes(Buffer chunk) {
        if (rejected) {
            return;
        }
        decoder.feed(chunk, this::onFrame).ifPresent(this::reject);
    }

    private void onFrame(Frame frame) {
        if (rejected) {
            return;
        }
        if (peer.isPresent()) {
            deliver(frame);
        } else if (frame.type() == FrameType.HELLO) {
            greet(frame);
        } else {
            reject(new MalformedFrame(MalformedFrame.Reason.NO_HELLO,
                    "first frame is " + frame.type() + ", expected HELLO"));
        }
    }

    private void greet(Frame frame) {
        Hello hello;
        try {
            hello = Hello.fromPayload(frame.payload());
        } catch (IllegalArgumentException e) {
            reject(new MalformedFrame(MalformedFrame.Reason.BAD_HELLO, e.getMessage()));
            return;
        }
        peer = Optional.of(hello.address());
        peerName = hello + " from " + socket.remoteAddress();
        log.debug("connection from {}", peerName);
        events.greeted(this, hello.address());
    }

    private void deliver(Frame frame) {
        try {
            upward.handle(frame);
        } catch (RuntimeException e) {
            // A bug above the transport; the connection and the frames behind this one are fine.
            log.error("frame handler failed on {} from {}", frame, peerName, e);
        }
    }

    private void reject(MalformedFrame problem) {
        if (rejected) {
            return;
        }
        rejected = true;
        log.warn("closing connection from {}: malformed input, {}", peerName, problem);
        socket.close();
    }
}
