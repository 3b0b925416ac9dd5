package dev.canopy.multicast.internal.fabric.udp;

import dev.canopy.core.comm.RankFailedException;
import dev.canopy.core.node.NodeId;
import dev.canopy.multicast.internal.link.ReliableLink;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import io.vertx.core.parsetools.RecordParser;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A reliable link between member processes for the namespace tests (in a Canopy job, core's collective
 * channel plays this part): one TCP connection per ordered pair, frames of [source rank, length, bytes].
 * Create, {@link #listen} and send on the owner's Vert.x context, so every handler runs there.
 */
final class TcpTestLink implements ReliableLink {

    private final Vertx vertx;
    private final int rank;
    private final List<String> addresses;
    private final int port;
    private final Map<Integer, Future<NetSocket>> connections = new HashMap<>();
    private NetClient client;
    private LinkHandler handler;

    TcpTestLink(Vertx vertx, int rank, List<String> addresses, int port) {
        this.vertx = vertx;
        this.rank = rank;
        this.addresses = List.copyOf(addresses);
        this.port = port;
    }

    Future<Void> listen() {
        client = vertx.createNetClient();
        return vertx.createNetServer().connectHandler(this::accept).listen(port, addresses.get(rank)).mapEmpty();
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return addresses.size();
    }

    @Override
    public Future<Void> send(int destination, Buffer payload) {
        Buffer frame = Buffer.buffer(8 + payload.length()).appendInt(rank).appendInt(payload.length()).appendBuffer(payload);
        return connections.computeIfAbsent(destination, d -> client.connect(port, addresses.get(d)))
                .recover(e -> Future.failedFuture(new RankFailedException(destination, NodeId.of("host-" + destination),
                        "cannot connect: " + e.getMessage())))
                .compose(socket -> socket.write(frame));
    }

    @Override
    public void handler(LinkHandler newHandler) {
        this.handler = newHandler;
    }

    private void accept(NetSocket socket) {
        RecordParser parser = RecordParser.newFixed(8);
        int[] header = new int[2];
        boolean[] inBody = new boolean[1];
        parser.handler(chunk -> {
            if (!inBody[0]) {
                header[0] = chunk.getInt(0);
                header[1] = chunk.getInt(4);
                if (header[1] == 0) {
                    handler.received(header[0], Buffer.buffer());
                    return;
                }
                inBody[0] = true;
                parser.fixedSizeMode(header[1]);
            } else {
                inBody[0] = false;
                parser.fixedSizeMode(8);
                handler.received(header[0], chunk);
            }
        });
        socket.handler(parser);
    }
}
