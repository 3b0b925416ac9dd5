package dev.canopy.core.transport;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameCodec;
import dev.canopy.core.internal.frame.FrameStreamDecoder;
import dev.canopy.core.internal.security.Rejection;
import dev.canopy.core.node.NodeAddress;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.util.ArrayDeque;
import java.util.Optional;

/**
 * A connection a peer opened to us. It starts with the server side of the {@link Handshake}: until
 * the peer proved it knows the job secret, nothing but the handshake is read (at most
 * {@link Hello#MAX_FRAME_BYTES} held), and a connection that has not authenticated within the
 * deadline is closed. Then it decodes the peer's frames and hands up those the {@link SourceCheck}
 * accepts. Anything refused is counted, logged at a bounded rate, and closes this connection only.
 *
 * <p>Owned by the transport's context.
 */
final class InboundConnection {

    /** What the transport learns about the connection. */
    interface Events {

        /** The peer proved who it is. */
        void authenticated(InboundConnection connection, NodeAddress peer);

        /** The connection closed; {@code peer} is empty when it never authenticated. */
        void closed(InboundConnection connection, Optional<NodeAddress> peer);
    }

    /** What every inbound connection of one transport shares. */
    record Settings(Context context, int maxFrameBytes, Handshake handshake, TransportSecurity security, boolean tls,
                    Handler<Frame> upward, Events events, Rejections rejections) {
    }

    private enum State { AWAITING_HELLO, AWAITING_PROOF, OPEN, CLOSED }

    private final NetSocket socket;
    private final Settings settings;
    private final String remoteHost;
    private final FrameStreamDecoder decoder;
    /** Frames waiting for the source check to decide (it had no rank table yet); the socket is paused meanwhile. */
    private final ArrayDeque<Frame> undecided = new ArrayDeque<>();
    private State state = State.AWAITING_HELLO;
    private HandshakeReader reader = new HandshakeReader();
    private Hello.ClientHello hello;
    private byte[] serverNonce;
    private Optional<NodeAddress> peer = Optional.empty();
    private String peerName;
    private long deadline = -1;
    private boolean anyBytes;

    InboundConnection(NetSocket socket, Settings settings) {
        this.socket = socket;
        this.settings = settings;
        this.remoteHost = socket.remoteAddress() == null ? "?" : socket.remoteAddress().hostAddress();
        this.decoder = new FrameStreamDecoder(settings.maxFrameBytes());
        this.peerName = String.valueOf(socket.remoteAddress());
    }

    void start() {
        socket.handler(this::onBytes);
        socket.exceptionHandler(e -> log().debug("connection from {}: {}", peerName, e.toString()));
        // Vert.x reports the close after the last bytes read have gone through onBytes.
        socket.closeHandler(v -> {
            cancelDeadline();
            settings.events().closed(this, peer);
        });
        deadline = settings.context().owner().setTimer(settings.security().handshakeTimeout().toMillis(),
                id -> refuse(Rejection.HANDSHAKE_TIMEOUT, "no valid handshake within "
                        + settings.security().handshakeTimeout().toMillis() + " ms"));
    }

    boolean authenticated() {
        return state == State.OPEN;
    }

    /** Closes the connection because too many others are still in their handshake. */
    void evict() {
        refuse(Rejection.HANDSHAKE_EVICTED, "too many connections in their handshake; closed the oldest");
    }

    void close() {
        state = State.CLOSED;
        cancelDeadline();
        socket.close();
    }

    private void onBytes(Buffer chunk) {
        switch (state) {
            case AWAITING_HELLO, AWAITING_PROOF -> onHandshakeBytes(chunk);
            case OPEN -> decoder.feed(chunk, this::onFrame)
                    .ifPresent(problem -> refuse(Rejection.FRAME_MALFORMED, problem.toString()));
            case CLOSED -> { }
        }
    }

    private void onHandshakeBytes(Buffer chunk) {
        if (!anyBytes && !settings.tls() && TransportTls.isTlsRecord(chunk)) {
            refuse(Rejection.TLS_UNEXPECTED, TransportTls.unexpectedTlsDetail("the peer"));
            return;
        }
        anyBytes = true;
        HandshakeReader.Step step = reader.feed(chunk);
        if (step instanceof HandshakeReader.Refused refused) {
            refuse(refused.rejection(), refused.detail());
        } else if (step instanceof HandshakeReader.Message message) {
            reader = new HandshakeReader();
            try {
                if (state == State.AWAITING_HELLO) {
                    onClientHello((Hello.ClientHello) Hello.decode(message.frame(), Hello.Kind.CLIENT_HELLO));
                } else {
                    onClientProof((Hello.ClientProof) Hello.decode(message.frame(), Hello.Kind.CLIENT_PROOF));
                }
            } catch (Hello.Refused refused) {
                refuse(refused.rejection, refused.getMessage());
                return;
            }
            if (message.rest().length() > 0) {
                onBytes(message.rest());
            }
        }
    }

    private void onClientHello(Hello.ClientHello clientHello) throws Hello.Refused {
        if (clientHello.job() != settings.handshake().job()) {
            throw new Hello.Refused(Rejection.HANDSHAKE_WRONG_JOB, "job key " + Long.toHexString(clientHello.job())
                    + ", this node's job " + settings.security().job() + " has " + Long.toHexString(settings.handshake().job()));
        }
        hello = clientHello;
        serverNonce = Handshake.nonce();
        Handshake handshake = settings.handshake();
        socket.write(FrameCodec.encode(Hello.serverHello(handshake.job(), serverNonce,
                handshake.serverProof(clientHello, serverNonce), handshake.self())));
        state = State.AWAITING_PROOF;
    }

    private void onClientProof(Hello.ClientProof proof) throws Hello.Refused {
        if (!settings.handshake().clientProofValid(hello, serverNonce, proof)) {
            throw new Hello.Refused(Rejection.HANDSHAKE_BAD_PROOF, "the client's proof is wrong: it does not know the"
                    + " secret of job " + settings.security().job());
        }
        state = State.OPEN;
        cancelDeadline();
        socket.write(FrameCodec.encode(Hello.serverAccept(settings.handshake().job())));
        peer = Optional.of(hello.identity().address());
        peerName = hello.identity() + " from " + socket.remoteAddress();
        log().debug("authenticated connection from {}", peerName);
        settings.events().authenticated(this, hello.identity().address());
    }

    private void onFrame(Frame frame) {
        if (state != State.OPEN) {
            return;
        }
        if (!undecided.isEmpty()) {
            undecided.add(frame);
            return;
        }
        switch (settings.security().sourceCheck().check(peer.orElseThrow(), frame)) {
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
        while (state == State.OPEN && !undecided.isEmpty()) {
            Frame frame = undecided.poll();
            if (settings.security().sourceCheck().check(peer.orElseThrow(), frame) == SourceCheck.Verdict.ACCEPT) {
                deliver(frame);
            } else {
                refuseSource(frame);
            }
        }
        if (state == State.OPEN) {
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
            log().error("frame handler failed on {} from {}", frame, peerName, e);
        }
    }

    private void refuse(Rejection rejection, String detail) {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        undecided.clear();
        cancelDeadline();
        settings.rejections().reject(rejection, remoteHost, "connection " + peerName, detail);
        socket.close();
    }

    private void cancelDeadline() {
        if (deadline != -1) {
            settings.context().owner().cancelTimer(deadline);
            deadline = -1;
        }
    }

    private dev.canopy.core.node.NodeLogger log() {
        return settings.rejections().log();
    }
}
