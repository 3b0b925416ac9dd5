package dev.canopy.cli.bench;

import dev.canopy.cli.FutureWait;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.security.tls.TlsSettings;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.core.transport.TransportSecurity;
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
import java.nio.file.Path;
import java.time.Duration;

/**
 * The second JVM of {@code canopy bench p2p}: answers Canopy frames on its transport and raw
 * messages on a plain NetSocket echo server and sink, prints one READY line with its ports, and exits when
 * its standard input closes (the benchmark ended or died).
 *
 * <p>Arguments: the benchmark's transport address as {@code host tcpPort udpPort}, the job secret's file,
 * the ports of the benchmark's TLS transport ({@code tcpPort udpPort}) and the directory of the TLS keys.
 * Its own TLS transport answers that one.
 */
public final class EchoPeer {

    /** How long one start-up or shutdown step may take. */
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(30);

    /** The job of the benchmark's two transports (they authenticate each other with a secret made per run). */
    static final JobId JOB = JobId.of("bench-p2p");

    private EchoPeer() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 7) {
            System.err.println("usage: EchoPeer <host> <tcpPort> <udpPort> <secretFile> <tlsTcpPort> <tlsUdpPort> <tlsDir>"
                    + " (started by canopy bench p2p)");
            System.exit(2);
        }
        Member benchmark = new Member(NodeId.of("bench"), Coordinates.ofHost("bench"),
                new NodeAddress(args[0], Integer.parseInt(args[1]), Integer.parseInt(args[2])));
        Member benchmarkTls = new Member(NodeId.of("bench-tls"), Coordinates.ofHost("bench-tls"),
                new NodeAddress(args[0], Integer.parseInt(args[4]), Integer.parseInt(args[5])));
        Vertx vertx = CanopyVertx.create();
        try {
            TransportSecurity security = TransportSecurity.of(JobSecret.fromFile(Path.of(args[3])), JOB);
            Transport transport = await(VertxTransport.start(vertx, TransportOptions.defaults().withNodeLabel("echo-peer"),
                    security));
            Transport tls = await(VertxTransport.start(vertx, TransportOptions.defaults().withNodeLabel("echo-peer-tls")
                    .withTls(TlsSettings.fromDirectory(Path.of(args[6]), 1)), security));
            answerFrames(transport, benchmark);
            answerFrames(tls, benchmarkTls);
            NetServer echo = await(vertx.createNetServer(new NetServerOptions().setTcpNoDelay(true))
                    .connectHandler(socket -> answerMessages(socket, MessageAnswer.ECHO)).listen(0, TransportOptions.LOOPBACK));
            NetServer sink = await(vertx.createNetServer(new NetServerOptions().setTcpNoDelay(true))
                    .connectHandler(socket -> answerMessages(socket, MessageAnswer.ONE_BYTE)).listen(0, TransportOptions.LOOPBACK));
            System.out.println(EchoProtocol.READY + " " + transport.localAddress().tcpPort() + " "
                    + transport.localAddress().udpPort() + " " + echo.actualPort() + " " + sink.actualPort() + " "
                    + tls.localAddress().tcpPort() + " " + tls.localAddress().udpPort());
            System.out.flush();
            drain(System.in);
        } finally {
            FutureWait.await(vertx.close(), Duration.ofSeconds(10), "closing Vert.x");
        }
    }

    private static void answerFrames(Transport transport, Member benchmark) {
        transport.frameHandler(frame -> {
            if (frame.tag() != EchoProtocol.TAG_SINK_QUIET) {
                transport.send(benchmark, answer(frame));
            }
        });
    }

    private static Frame answer(Frame request) {
        Buffer payload = request.tag() == EchoProtocol.TAG_ECHO ? request.payload() : Buffer.buffer();
        FrameType type = request.tag() == EchoProtocol.TAG_ECHO ? request.type() : FrameType.ACK;
        return new Frame(type, request.job(), request.context(), 0, request.destination(),
                request.source(), request.tag(), request.sequence(), payload);
    }

    /** What the plain NetSocket servers send back for each whole message. */
    private enum MessageAnswer { ECHO, ONE_BYTE }

    /**
     * Reads a 4-byte message size, then answers each whole message of that size: with the message
     * itself (echo, once all of it is in, as Canopy's peer answers a whole frame) or with one byte
     * (sink, for throughput).
     */
    private static void answerMessages(NetSocket socket, MessageAnswer answer) {
        Buffer header = Buffer.buffer();
        long[] state = {-1, 0}; // message size (unknown until the header is complete), bytes of the current message
        Buffer[] message = {null};
        socket.handler(bytes -> {
            Buffer body = bytes;
            if (state[0] < 0) {
                int needed = 4 - header.length();
                header.appendBuffer(bytes.getBuffer(0, Math.min(needed, bytes.length())));
                if (header.length() < 4) {
                    return;
                }
                state[0] = header.getInt(0);
                body = bytes.getBuffer(Math.min(needed, bytes.length()), bytes.length());
            }
            if (answer == MessageAnswer.ONE_BYTE) {
                state[1] += body.length();
                int complete = (int) (state[1] / state[0]);
                state[1] %= state[0];
                if (complete > 0) {
                    socket.write(Buffer.buffer(new byte[complete]));
                }
                return;
            }
            int position = 0;
            while (position < body.length()) {
                if (message[0] == null) {
                    message[0] = Buffer.buffer((int) state[0]);
                }
                int take = (int) Math.min(state[0] - message[0].length(), body.length() - position);
                message[0].appendBuffer(body, position, take);
                position += take;
                if (message[0].length() == state[0]) {
                    socket.write(message[0]);
                    message[0] = null;
                }
            }
        });
    }

    private static <T> T await(Future<T> future) {
        return FutureWait.await(future, STEP_TIMEOUT, "echo peer");
    }

    private static void drain(InputStream in) throws IOException {
        byte[] ignored = new byte[256];
        while (in.read(ignored) >= 0) {
            // The benchmark writes nothing; end of stream means it is done.
        }
    }
}
