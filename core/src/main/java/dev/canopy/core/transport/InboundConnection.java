package dev.canopy.core.transport;

import dev.canopy.core.frame.Frame;
import dev.canopy.core.frame.FrameStreamDecoder;
import dev.canopy.core.frame.FrameType;
import dev.canopy.core.frame.MalformedFrame;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * A connection a peer opened to us: decodes its frames and hands them up. Its first frame must be
 * {@link FrameType#HELLO}. Malformed input closes this connection only, with the reason logged.
 *
 * <p>Owned by the transport's context.
 */
final class InboundConnection {

    private final NetSocket socket;
    private final FrameStreamDecoder decoder;
    private final Handler<Frame> upward;
    private final Consumer<InboundConnection> onClosed;
    private final NodeLog log;
    private String peerName;
    private boolean greeted;
    private boolean rejected;

    InboundConnection(NetSocket socket, int maxFrameBytes, Handler<Frame> upward, Consumer<InboundConnection> onClosed,
            NodeLog log) {
        this.socket = socket;
        this.decoder = new FrameStreamDecoder(maxFrameBytes);
        this.upward = upward;
        this.onClosed = onClosed;
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
        socket.closeHandler(v -> onClosed.accept(this));
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
        if (greeted) {
            deliver(frame);
        } else if (frame.type() == FrameType.HELLO) {
            greeted = true;
            peerName = frame.payload().toString(StandardCharsets.UTF_8) + "@" + socket.remoteAddress();
            log.debug("connection from {}", peerName);
        } else {
            reject(new MalformedFrame(MalformedFrame.Reason.NO_HELLO,
                    "first frame is " + frame.type() + ", expected HELLO"));
        }
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
