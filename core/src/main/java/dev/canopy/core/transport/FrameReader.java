package dev.canopy.core.transport;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameStreamDecoder;
import dev.canopy.core.internal.security.Rejection;
import dev.canopy.core.node.NodeAddress;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.util.ArrayDeque;

/**
 * Reads the frames of an authenticated connection, whichever side dialled it: decodes them and hands up
 * those the {@link SourceCheck} accepts for the peer the handshake authenticated. A malformed frame or one
 * from another rank is counted, logged at a bounded rate, and closes this connection only.
 *
 * <p>Owned by the transport's context.
 */
final class FrameReader {

    /** What every reader of one transport shares. */
    record Settings(Context context, int maxFrameBytes, TransportSecurity security, Handler<Frame> upward,
                    Rejections rejections) {
    }

    private final NetSocket socket;
    private final NodeAddress peer;
    private final String peerName;
    private final String remoteHost;
    private final Settings settings;
    private final FrameStreamDecoder decoder;
    /** Frames waiting for the source check to decide (it had no rank table yet); the socket is paused meanwhile. */
    private final ArrayDeque<Frame> undecided = new ArrayDeque<>();
    private boolean stopped;

    FrameReader(NetSocket socket, NodeAddress peer, String peerName, Settings settings) {
        this.socket = socket;
        this.peer = peer;
        this.peerName = peerName;
        this.remoteHost = socket.remoteAddress() == null ? "?" : socket.remoteAddress().hostAddress();
        this.settings = settings;
        this.decoder = new FrameStreamDecoder(settings.maxFrameBytes());
    }

    void feed(Buffer chunk) {
        if (!stopped) {
            decoder.feed(chunk, this::onFrame).ifPresent(problem -> refuse(Rejection.FRAME_MALFORMED, problem.toString()));
        }
    }

    /** Nothing read from now on is handed up (the connection is closing). */
    void stop() {
        stopped = true;
        undecided.clear();
    }

    private void onFrame(Frame frame) {
        if (stopped) {
            return;
        }
        if (!undecided.isEmpty()) {
            undecided.add(frame);
            return;
        }
        switch (settings.security().sourceCheck().check(peer, frame)) {
            case ACCEPT -> deliver(frame);
            case REJECT -> refuseSource(frame);
            case NOT_YET -> {
                undecided.add(frame);
                socket.pause();
                settings.security().sourceCheck().settled()
                        .onComplete(settled -> settings.context().runOnContext(v -> decideWaiting()));
            }
        }
    }

    /** The source check can decide now; a frame it still cannot place is refused. */
    private void decideWaiting() {
        while (!stopped && !undecided.isEmpty()) {
            Frame frame = undecided.poll();
            if (settings.security().sourceCheck().check(peer, frame) == SourceCheck.Verdict.ACCEPT) {
                deliver(frame);
            } else {
                refuseSource(frame);
            }
        }
        if (!stopped) {
            socket.resume();
        }
    }

    private void refuseSource(Frame frame) {
        refuse(Rejection.FRAME_WRONG_SOURCE, frame + " claims source rank " + frame.source()
                + ", which is not the authenticated peer " + peerName);
    }

    private void deliver(Frame frame) {
        try {
            settings.upward().handle(frame);
        } catch (RuntimeException e) {
            // A bug above the transport; the connection and the frames behind this one are fine.
            settings.rejections().log().error("frame handler failed on {} from {}", frame, peerName, e);
        }
    }

    private void refuse(Rejection rejection, String detail) {
        if (stopped) {
            return;
        }
        stop();
        settings.rejections().reject(rejection, remoteHost, "connection " + peerName, detail);
        socket.close();
    }
}
