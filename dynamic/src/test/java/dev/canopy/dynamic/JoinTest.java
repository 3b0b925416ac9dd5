package dev.canopy.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.security.tls.TlsSettings;
import dev.canopy.core.testing.TestPki;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * MPI_Comm_join over real TCP sockets on 127.0.0.1: one process of each of two jobs (their own job secrets, no name
 * service involved) joins over a socket they share; the inter-communicator carries messages and collectives both
 * ways, merges, and the socket stays usable. A peer that speaks something else, closes, stays silent, tampers with
 * the exchange, or runs without the TLS this side runs fails the join with a message naming the cause.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class JoinTest {

    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final Duration SHORT = Duration.ofSeconds(3);

    @TempDir
    static Path directory;
    private TwoJobs jobs;
    private final List<Socket> sockets = new ArrayList<>();
    private final List<DynamicProcesses> opened = new ArrayList<>();

    @BeforeAll
    void start() {
        jobs = TwoJobs.start(TwoJobs.fourSites(), new int[] {0}, new int[] {9}, false, InterPhase.TOPOLOGY);
    }

    @AfterEach
    void closeSockets() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
        sockets.clear();
    }

    @AfterAll
    void close() {
        opened.forEach(DynamicProcesses::close);
        if (jobs != null) {
            jobs.close();
        }
    }

    @Test
    void twoProcessesSharingASocketGetAnInterCommunicatorOfOneEach() throws IOException {
        Socket[] pair = connectedPair();
        Future<InterCommunicator> left = server().join(pair[0]);
        Future<InterCommunicator> right = client().join(pair[1]);
        InterCommunicator a = Await.result(left, BOUND);
        InterCommunicator b = Await.result(right, BOUND);
        try {
            for (InterCommunicator end : List.of(a, b)) {
                assertThat(end.size()).isEqualTo(1);
                assertThat(end.rank()).isZero();
                assertThat(end.remoteSize()).isEqualTo(1);
            }
            assertThat(a.remoteMember(0).coordinates()).isEqualTo(jobs.client.get(0).node().coordinates());
            assertThat(b.remoteMember(0).coordinates()).isEqualTo(jobs.server.get(0).node().coordinates());

            Await.result(a.send(0, 3, Buffer.buffer("from a")), BOUND);
            Await.result(b.send(0, 3, Buffer.buffer("from b")), BOUND);
            assertThat(Await.result(b.receive(Communicator.ANY_SOURCE, 3), BOUND).payload()).hasToString("from a");
            assertThat(Await.result(a.receive(0, 3), BOUND).payload()).hasToString("from b");

            // Each side gets the other's contribution (MPI's inter-communicator allreduce).
            Future<Buffer> sumA = a.allreduce(ArrayType.INTS.encode(new int[] {5}), ElementType.INT, BuiltInOp.SUM);
            Future<Buffer> sumB = b.allreduce(ArrayType.INTS.encode(new int[] {7}), ElementType.INT, BuiltInOp.SUM);
            assertThat(ArrayType.INTS.decode(Await.result(sumA, BOUND))).containsExactly(7);
            assertThat(ArrayType.INTS.decode(Await.result(sumB, BOUND))).containsExactly(5);
            Future<Buffer> sent = a.bcast(Buffer.buffer("broadcast"), InterCommunicator.ROOT);
            assertThat(Await.result(b.bcast(null, 0), BOUND)).hasToString("broadcast");
            Await.result(sent, BOUND);

            Future<InterCommunicator.Merged> mergedA = a.merge(MergeOrder.HIGH);
            InterCommunicator.Merged mergedB = Await.result(b.merge(MergeOrder.LOW), BOUND);
            assertThat(mergedB.communicator().size()).isEqualTo(2);
            assertThat(mergedB.communicator().rank()).isZero();
            assertThat(Await.result(mergedA, BOUND).communicator().rank()).isEqualTo(1);
            Future<Void> freedA = mergedA.result().communicator().free();
            Await.result(mergedB.communicator().free(), BOUND);
            Await.result(freedA, BOUND);

            // The exchange took exactly its own bytes: the socket is the caller's again.
            pair[0].getOutputStream().write("after".getBytes(StandardCharsets.US_ASCII));
            assertThat(pair[1].getInputStream().readNBytes(5)).isEqualTo("after".getBytes(StandardCharsets.US_ASCII));
        } finally {
            Future<Void> goneA = a.disconnect();
            Await.result(b.disconnect(), BOUND);
            Await.result(goneA, BOUND);
        }
    }

    @Test
    void tlsOnBothEndsJoinsAndTlsOnOneEndIsRefusedNamingTheOption() throws IOException {
        TestPki ca = TestPki.authority("join CA");
        TlsSettings tls = TlsSettings.load(ca.write(directory, "node", ca.issue("canopy-node")).certificate(),
                directory.resolve("node.key"), directory.resolve("node-ca.crt"));
        DynamicProcesses tlsServer = dynamic(jobs.server.get(0), options(jobs.server.get(0)).withTls(tls));
        DynamicProcesses tlsClient = dynamic(jobs.client.get(0), options(jobs.client.get(0)).withTls(tls));

        Socket[] pair = connectedPair();
        Future<InterCommunicator> left = tlsServer.join(pair[0]);
        InterCommunicator b = Await.result(tlsClient.join(pair[1]), BOUND);
        InterCommunicator a = Await.result(left, BOUND);
        Await.result(b.send(0, 4, Buffer.buffer("over TLS")), BOUND);
        assertThat(Await.result(a.receive(0, 4), BOUND).payload()).hasToString("over TLS");
        Future<Void> goneA = a.disconnect();
        Await.result(b.disconnect(), BOUND);
        Await.result(goneA, BOUND);

        Socket[] mixed = connectedPair();
        Future<InterCommunicator> withTls = tlsServer.join(mixed[0]);
        Throwable plain = Await.failure(client().join(mixed[1]), BOUND);
        assertThat(plain).isInstanceOf(InterCommunicatorException.class).hasMessageContaining("without TLS and the other group with")
                .hasMessageContaining("--tls");
        assertThat(Await.failure(withTls, BOUND)).hasMessageContaining("with TLS and the other group without");
    }

    @Test
    void aPeerThatSpeaksAnotherProtocolIsRefusedNamingIt() throws IOException {
        Socket[] pair = connectedPair();
        Future<InterCommunicator> join = server().join(pair[0]);
        pair[1].getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(Await.failure(join, BOUND)).hasMessageContaining("does not speak the join protocol")
                .hasMessageContaining("47455420"); // "GET " in hex, as received
    }

    @Test
    void aPeerThatClosesTheSocketFailsTheJoin() throws IOException {
        Socket[] pair = connectedPair();
        pair[1].close();
        assertThat(Await.failure(server().join(pair[0]), BOUND)).hasMessageContaining("did the other end close it?");
    }

    @Test
    void aSilentPeerFailsTheJoinWithinTheTimeout() throws IOException {
        Socket[] pair = connectedPair();
        DynamicProcesses impatient = dynamic(jobs.server.get(0), options(jobs.server.get(0)).withTimeout(SHORT));
        Throwable failure = Await.failure(impatient.join(pair[0]), BOUND);
        assertThat(failure).isInstanceOf(DynamicTimeoutException.class).hasMessageContaining("is it calling DynamicProcesses.join too?");
    }

    @Test
    void aSocketThatIsNotConnectedIsRefused() {
        Throwable failure = Await.failure(server().join(new Socket()), BOUND);
        assertThat(failure).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a connected, open socket");
    }

    @Test
    void aRecordRewrittenOnTheWayIsRefusedByBothEnds() throws IOException {
        Socket[] left = connectedPair();
        Socket[] right = connectedPair();
        // left[1] and right[0] are a relay that changes one byte of each side's record (after the keys: 4 + 44 bytes,
        // then the record's length, 4 bytes).
        relay(left[1], right[0]);
        relay(right[0], left[1]);
        Future<InterCommunicator> a = server().join(left[0]);
        Future<InterCommunicator> b = client().join(right[1]);
        assertThat(Await.failure(a, BOUND)).hasMessageContaining("does not carry the join key's MAC");
        assertThat(Await.failure(b, BOUND)).hasMessageContaining("does not carry the join key's MAC");
    }

    private DynamicProcesses server() {
        return jobs.server.get(0).dynamic();
    }

    private DynamicProcesses client() {
        return jobs.client.get(0).dynamic();
    }

    private DynamicOptions options(TwoJobs.Process process) {
        return jobs.options(process.index(), InterPhase.TOPOLOGY);
    }

    private DynamicProcesses dynamic(TwoJobs.Process process, DynamicOptions options) {
        DynamicProcesses dynamic = DynamicProcesses.over(process.collectives(), jobs.grid, options);
        opened.add(dynamic);
        return dynamic;
    }

    /** Two ends of one TCP connection on 127.0.0.1. */
    private Socket[] connectedPair() throws IOException {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Socket dialled = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort());
            Socket accepted = listener.accept();
            sockets.add(dialled);
            sockets.add(accepted);
            return new Socket[] {dialled, accepted};
        }
    }

    /** Copies {@code from}'s input to {@code to}'s output on a thread of its own, flipping the record's first byte. */
    private static void relay(Socket from, Socket to) {
        Thread copier = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int offset = 0;
                for (int b = in.read(); b >= 0; b = in.read()) {
                    out.write(offset == SocketJoin.PUBLIC_KEY_BYTES + 4 + 4 ? b ^ 0x01 : b);
                    offset++;
                }
            } catch (IOException e) {
                // a socket closed: the relay ends
            }
        }, "join-relay");
        copier.setDaemon(true);
        copier.start();
    }
}
