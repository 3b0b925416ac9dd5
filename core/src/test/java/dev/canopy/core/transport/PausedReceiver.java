package dev.canopy.core.transport;

import dev.canopy.core.frame.Frame;
import dev.canopy.core.frame.FrameStreamDecoder;
import dev.canopy.core.frame.FrameType;
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
 * A raw TCP peer that accepts one connection and does not read from it until {@link #resume()}:
 * the slow receiver of back-pressure tests. Decodes what it reads once resumed.
 */
final class PausedReceiver implements AutoCloseable {

    private final NetServer server;
    private final Promise<NetSocket> connection = Promise.promise();
    private final int port;
    final BlockingQueue<Frame> received = new LinkedBlockingQueue<>();

    PausedReceiver(Vertx vertx) {
        server = vertx.createNetServer().connectHandler(socket -> {
            socket.pause();
            FrameStreamDecoder decoder = new FrameStreamDecoder(64 * 1024 * 1024);
            socket.handler(bytes -> decoder.feed(bytes, frame -> {
                if (frame.type() != FrameType.HELLO) {
                    received.add(frame);
                }
            }));
            connection.tryComplete(socket);
        });
        port = Await.result(server.listen(0, "127.0.0.1")).actualPort();
    }

    Member member(String id) {
        return new Member(NodeId.of(id), Coordinates.ofHost(id), new NodeAddress("127.0.0.1", port, port));
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
