package dev.canopy.core.transport;

import dev.canopy.core.internal.frame.FrameCodec;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;

/**
 * Both sides of the handshake over a raw socket, for tests that play a peer byte by byte: a member
 * that authenticates and then misbehaves, or a receiver that authenticates and then stops reading.
 */
public final class RawHandshake {

    private RawHandshake() {
    }

    /**
     * Connects to {@code server} claiming {@code claimed} and completes the client side with {@code security};
     * returns once the server accepted (or closed the connection, when it refused the proof).
     */
    /** An authenticated raw socket and the moment the server closes it. */
    public record Connection(NetSocket socket, Future<Void> closed) {
    }

    public static NetSocket connect(Vertx vertx, Member server, TransportSecurity security, NodeAddress claimed) {
        return connect(vertx, server, security, claimed, Buffer.buffer()).socket();
    }

    /** As {@link #connect(Vertx, Member, TransportSecurity, NodeAddress)}, appending every byte it writes to {@code transcript}. */
    public static Connection connect(Vertx vertx, Member server, TransportSecurity security, NodeAddress claimed,
            Buffer transcript) {
        NetSocket socket = Await.result(vertx.createNetClient().connect(server.address().tcpPort(), "127.0.0.1"));
        Promise<Void> closed = Promise.promise();
        socket.closeHandler(v -> closed.tryComplete());
        Handshake handshake = new Handshake(security, PeerIdentity.of(claimed, "raw"));
        byte[] nonce = Handshake.nonce();
        Promise<Void> done = Promise.promise();
        HandshakeReader[] reader = {new HandshakeReader()};
        boolean[] proofSent = {false};
        socket.handler(chunk -> {
            if (done.future().isComplete()) {
                return;
            }
            if (reader[0].feed(chunk) instanceof HandshakeReader.Message message) {
                reader[0] = new HandshakeReader();
                try {
                    if (proofSent[0]) {
                        if (((Hello.ServerVerdict) Hello.decode(message.frame(), Hello.Kind.SERVER_ACCEPT)).accepted()) {
                            done.complete();
                        } else {
                            done.fail(new IllegalStateException("the server declined the connection: its own to "
                                    + claimed + " is the pair's"));
                        }
                        return;
                    }
                    Hello.ServerHello hello = (Hello.ServerHello) Hello.decode(message.frame(), Hello.Kind.SERVER_HELLO);
                    Buffer proof = FrameCodec.encode(Hello.clientProof(handshake.job(), handshake.clientProof(nonce, hello)));
                    transcript.appendBuffer(proof);
                    proofSent[0] = true;
                    socket.write(proof);
                } catch (Hello.Refused e) {
                    done.fail(e);
                }
            }
        });
        Buffer clientHello = FrameCodec.encode(Hello.clientHello(handshake.job(), nonce, handshake.self()));
        transcript.appendBuffer(clientHello);
        socket.write(clientHello);
        // Done once the server accepted, or (a refused client) once it closed the connection.
        Await.result(Future.any(done.future(), closed.future()));
        if (done.future().failed()) {
            throw new AssertionError("handshake as " + claimed + ": " + done.future().cause().getMessage());
        }
        return new Connection(socket, closed.future());
    }

    /**
     * Completes the server side on an accepted {@code socket} as {@code self}; then hands what followed the
     * client's proof to {@code rest} and completes. The socket's handler is the caller's to set afterwards.
     */
    static Future<Void> serve(NetSocket socket, TransportSecurity security, NodeAddress self, Handler<Buffer> rest) {
        Handshake handshake = new Handshake(security, PeerIdentity.of(self, "raw-server"));
        byte[] nonce = Handshake.nonce();
        Promise<Void> done = Promise.promise();
        HandshakeReader[] reader = {new HandshakeReader()};
        Hello.ClientHello[] hello = new Hello.ClientHello[1];
        socket.handler(chunk -> {
            if (done.future().isComplete()) {
                return;
            }
            if (reader[0].feed(chunk) instanceof HandshakeReader.Message message) {
                reader[0] = new HandshakeReader();
                try {
                    if (hello[0] == null) {
                        hello[0] = (Hello.ClientHello) Hello.decode(message.frame(), Hello.Kind.CLIENT_HELLO);
                        socket.write(FrameCodec.encode(Hello.serverHello(handshake.job(), nonce,
                                handshake.serverProof(hello[0], nonce), handshake.self())));
                    } else {
                        Hello.decode(message.frame(), Hello.Kind.CLIENT_PROOF);
                        socket.write(FrameCodec.encode(Hello.serverAccept(handshake.job())));
                        rest.handle(message.rest());
                        done.complete();
                    }
                } catch (Hello.Refused e) {
                    done.fail(e);
                }
            }
        });
        return done.future();
    }
}
