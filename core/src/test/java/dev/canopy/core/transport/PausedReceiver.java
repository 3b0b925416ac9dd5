package dev.canopy.core.transport;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameStreamDecoder;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A raw TCP peer that accepts one connection, completes the handshake and then does not read from it until {@link #resume()}:
 * the slow receiver of back-pressure tests. Decodes what it reads once resumed.
 */
final class PausedReceiver implements AutoCloseable {

    private final NetServer server;
    private final Promise<NetSocket> connection = Promise.promise();
    private final int port;
    final BlockingQueue<Frame> received = new LinkedBlockingQueue<>();

    /** A receiver that authenticates with {@code security}, then stops reading. */
    PausedReceiver(Vertx vertx, TransportSecurity security) {
        int[] listening = new int[1];
        server = vertx.createNetServer().connectHandler(socket -> {
            FrameStreamDecoder decoder = new FrameStreamDecoder(64 * 1024 * 1024);
            RawHandshake.serve(socket, security, address(listening[0]), rest -> {
                socket.pause();
                decoder.feed(rest, received::add);
                socket.handler(bytes -> decoder.feed(bytes, received::add));
                connection.tryComplete(socket);
            });
        });
        port = Await.result(server.listen(0, "127.0.0.1")).actualPort();
        listening[0] = port;
    }

    private static NodeAddress address(int port) {
        return new NodeAddress("127.0.0.1", port, port);
    }

    Member member(String id) {
        return new Member(NodeId.of(id), Coordinates.ofHost(id), address(port));
    }

    NetSocket awaitConnection() {
        return Await.result(connection.future());
    }

    void resume() {
        awaitConnection().resume();
    }

    @Override
    public void close() {
        Await.result(server.close());
    }
}
