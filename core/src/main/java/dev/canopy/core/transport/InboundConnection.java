package dev.canopy.core.transport;

import dev.canopy.core.internal.frame.FrameCodec;
import dev.canopy.core.internal.security.Rejection;
import dev.canopy.core.node.NodeAddress;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.util.Optional;

/**
 * A connection a peer opened to us. It starts with the server side of the {@link Handshake}: until
 * the peer proved it knows the job secret, nothing but the handshake is read (at most
 * {@link Hello#MAX_FRAME_BYTES} held), and a connection that has not authenticated within the
 * deadline is closed. Then the transport decides whether it becomes the one connection of this pair of
 * members ({@link Events#authenticated}): if so the peer is told (accept) and its frames are read by a
 * {@link FrameReader}, while the transport writes ours on the same socket; if not (this node's own
 * connection to the peer wins the tie-break) the peer is told (decline) and the connection closed.
 * Anything refused is counted, logged at a bounded rate, and closes this connection only.
 *
 * <p>Owned by the transport's context.
 */
final class InboundConnection {

    /** What the transport learns about the connection. */
    interface Events {

        /**
         * The peer proved who it is; returns whether this connection is to become the pair's connection (else it
         * is declined and closed).
         */
        boolean authenticated(InboundConnection connection, NodeAddress peer);

        /** The peer was told that this is the pair's connection: frames to it may go on it from now on. */
        void accepted(InboundConnection connection, NodeAddress peer);

        /** The connection closed; {@code peer} is empty when it never became the pair's connection. */
        void closed(InboundConnection connection, Optional<NodeAddress> peer);
    }

    /** What every inbound connection of one transport shares. */
    record Settings(FrameReader.Settings reading, Handshake handshake, boolean tls, Events events) {
    }

    private enum State { AWAITING_HELLO, AWAITING_PROOF, OPEN, CLOSED }

    private final NetSocket socket;
    private final Settings settings;
    private final String remoteHost;
    private State state = State.AWAITING_HELLO;
    private HandshakeReader reader = new HandshakeReader();
    private FrameReader frames;
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
        deadline = settings.reading().context().owner().setTimer(settings.reading().security().handshakeTimeout()
                .toMillis(), id -> refuse(Rejection.HANDSHAKE_TIMEOUT, "no valid handshake within "
                + settings.reading().security().handshakeTimeout().toMillis() + " ms"));
    }

    NetSocket socket() {
        return socket;
    }

    /** Closes the connection because too many others are still in their handshake. */
    void evict() {
        refuse(Rejection.HANDSHAKE_EVICTED, "too many connections in their handshake; closed the oldest");
    }

    void close() {
        stopReading();
        socket.close();
    }

    /** Hands up nothing more; the socket stays open for the frames queued to it (the transport closes it). */
    void stopReading() {
        state = State.CLOSED;
        cancelDeadline();
        if (frames != null) {
            frames.stop();
        }
    }

    private void onBytes(Buffer chunk) {
        switch (state) {
            case AWAITING_HELLO, AWAITING_PROOF -> onHandshakeBytes(chunk);
            case OPEN -> frames.feed(chunk);
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
                    + ", this node's job " + settings.reading().security().job() + " has "
                    + Long.toHexString(settings.handshake().job()));
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
                    + " secret of job " + settings.reading().security().job());
        }
        cancelDeadline();
        NodeAddress address = hello.identity().address();
        peerName = hello.identity() + " from " + socket.remoteAddress();
        if (!settings.events().authenticated(this, address)) {
            // Our own connection to the peer wins; it will adopt that one. Not a refusal: nothing is counted.
            log().debug("declined connection from {}: this node's connection to it is the pair's", peerName);
            state = State.CLOSED;
            socket.write(FrameCodec.encode(Hello.serverDecline(settings.handshake().job())));
            socket.close();
            return;
        }
        state = State.OPEN;
        peer = Optional.of(address);
        frames = new FrameReader(socket, address, peerName, settings.reading());
        socket.write(FrameCodec.encode(Hello.serverAccept(settings.handshake().job())));
        log().debug("authenticated connection from {}", peerName);
        settings.events().accepted(this, address);
    }

    private void refuse(Rejection rejection, String detail) {
        if (state == State.CLOSED) {
            return;
        }
        stopReading();
        settings.reading().rejections().reject(rejection, remoteHost, "connection " + peerName, detail);
        socket.close();
    }

    private void cancelDeadline() {
        if (deadline != -1) {
            settings.reading().context().owner().cancelTimer(deadline);
            deadline = -1;
        }
    }

    private dev.canopy.core.node.NodeLogger log() {
        return settings.reading().rejections().log();
    }
}
