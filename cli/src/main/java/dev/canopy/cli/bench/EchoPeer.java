package dev.canopy.cli.bench;

import dev.canopy.core.frame.Frame;
import dev.canopy.core.frame.FrameType;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.core.transport.VertxTransport;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;

/**
 * The second JVM of {@code canopy bench p2p}: answers Canopy frames on its transport and raw bytes
 * on a plain NetSocket echo server and sink, prints one READY line with its ports, and exits when
 * its standard input closes (the benchmark ended or died).
 *
 * <p>Arguments: the benchmark's transport address as {@code host tcpPort udpPort}.
 */
public final class EchoPeer {

    private EchoPeer() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: EchoPeer <host> <tcpPort> <udpPort> (started by canopy bench p2p)");
            System.exit(2);
        }
        Member benchmark = new Member(NodeId.of("bench"), Coordinates.ofHost("bench"),
                new NodeAddress(args[0], Integer.parseInt(args[1]), Integer.parseInt(args[2])));
        Vertx vertx = Vertx.vertx();
        try {
            Transport transport = await(VertxTransport.start(vertx, TransportOptions.defaults().withNodeLabel("echo-peer")));
            transport.frameHandler(frame -> transport.send(benchmark, answer(frame)));
            NetServer echo = await(vertx.createNetServer(new NetServerOptions().setTcpNoDelay(true))
                    .connectHandler(socket -> socket.pipeTo(socket)).listen(0, TransportOptions.LOOPBACK));
            NetServer sink = await(vertx.createNetServer(new NetServerOptions().setTcpNoDelay(true))
                    .connectHandler(EchoPeer::sink).listen(0, TransportOptions.LOOPBACK));
            System.out.println(EchoProtocol.READY + " " + transport.localAddress().tcpPort() + " "
                    + transport.localAddress().udpPort() + " " + echo.actualPort() + " " + sink.actualPort());
            System.out.flush();
            drain(System.in);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    private static Frame answer(Frame request) {
        Buffer payload = request.tag() == EchoProtocol.TAG_ECHO ? request.payload() : Buffer.buffer();
        FrameType type = request.tag() == EchoProtocol.TAG_ECHO ? request.type() : FrameType.ACK;
        return new Frame(type, request.job(), request.context(), request.epoch(), request.destination(),
                request.source(), request.tag(), request.sequence(), payload);
    }

    /** Reads a 4-byte message size, then answers one byte per message of that size. */
    private static void sink(NetSocket socket) {
        Buffer header = Buffer.buffer();
        long[] state = {-1, 0}; // message size (unknown until the header is complete), bytes of the current message
        socket.handler(bytes -> {
            Buffer body = bytes;
            if (state[0] < 0) {
                int needed = 4 - header.length();
                header.appendBuffer(bytes.getBuffer(0, Math.min(needed, bytes.length())));
                if (header.length() < 4) {
                    return;
                }
                state[0] = header.getInt(0);
                body = bytes.getBuffer(needed, bytes.length());
            }
            state[1] += body.length();
            int complete = (int) (state[1] / state[0]);
            state[1] %= state[0];
            if (complete > 0) {
                socket.write(Buffer.buffer(new byte[complete]));
            }
        });
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static void drain(InputStream in) throws IOException {
        byte[] ignored = new byte[256];
        while (in.read(ignored) >= 0) {
            // The benchmark writes nothing; end of stream means it is done.
        }
    }
}
