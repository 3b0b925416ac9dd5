package dev.canopy.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameCodec;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.internal.security.Rejection;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.testing.Await;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.datagram.DatagramSocket;
import io.vertx.core.net.NetSocket;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A peer that writes bad bytes loses its own connection and nothing else: the node keeps serving
 * another peer over that peer's existing connection.
 */
class MalformedInputTest {

    /**
     * The bad peer's own identity: claiming the good peer's instead would make the good peer's dial replace (and
     * close) the bad peer's connection as the pair's spare before its bad bytes are written.
     */
    private static final NodeAddress BAD_PEER = new NodeAddress("127.0.0.1", 9, 9);

    private final TestNodes nodes = new TestNodes();
    private Transport good;
    private Transport server;
    private Member toServer;
    private final BlockingQueue<Frame> received = new LinkedBlockingQueue<>();

    @BeforeEach
    void setUp() {
        good = nodes.start("good");
        server = nodes.start("server");
        toServer = TestNodes.member("server", "s", server);
        server.frameHandler(received::add);
    }

    @AfterEach
    void tearDown() {
        nodes.close();
    }

    /** Bytes an unauthenticated client opens with: refused before anything is read beyond the handshake. */
    static Stream<Arguments> badOpenings() {
        Buffer valid = FrameCodec.encode(TestNodes.data(1, 16));
        byte[] garbage = new byte[300];
        new Random(7).nextBytes(garbage);
        return Stream.of(
                Arguments.of("garbage", Buffer.buffer(garbage)),
                Arguments.of("no hello", valid.copy()),
                Arguments.of("hello without a handshake payload", FrameCodec.encode(
                        new Frame(FrameType.HELLO, 0, 0, 0, -1, -1, 0, 0, Buffer.buffer("raw")))),
                Arguments.of("hello announcing a 1 MB payload", patched(FrameCodec.encode(
                        new Frame(FrameType.HELLO, 0, 0, 0, -1, -1, 0, 0, Buffer.buffer("raw"))),
                        FrameCodec.PAYLOAD_LENGTH_OFFSET, 1 << 20)),
                Arguments.of("a client proof first", FrameCodec.encode(Hello.clientProof(TestNodes.JOB, new byte[32]))));
    }

    /** Bytes an authenticated peer sends after the handshake. */
    static Stream<Arguments> badStreams() {
        Buffer valid = FrameCodec.encode(TestNodes.data(1, 16));
        return Stream.of(
                Arguments.of("bad magic", patched(valid, FrameCodec.MAGIC_OFFSET, 0xDEADBEEF)),
                Arguments.of("bad version", patchedByte(valid, FrameCodec.VERSION_OFFSET, 9)),
                Arguments.of("unknown type", patchedByte(valid, FrameCodec.TYPE_OFFSET, 200)),
                Arguments.of("oversized length", patched(valid, FrameCodec.PAYLOAD_LENGTH_OFFSET, Integer.MAX_VALUE)),
                Arguments.of("negative length", patched(valid, FrameCodec.PAYLOAD_LENGTH_OFFSET, -5)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badOpenings")
    void aMalformedOpeningClosesOnlyItsConnection(String name, Buffer bytes) {
        NetSocket raw = Await.result(nodes.vertx.createNetClient().connect(toServer.address().tcpPort(), "127.0.0.1"));
        assertClosedAfter(raw, bytes);
        Await.until(() -> server.securityCounters().total() == 1, () -> "one refusal counted: "
                + server.securityCounters());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badStreams")
    void aMalformedStreamClosesOnlyItsConnection(String name, Buffer bytes) {
        NetSocket raw = RawHandshake.connect(nodes.vertx, toServer, nodes.security, BAD_PEER);
        assertClosedAfter(raw, bytes);
        assertThat(server.securityCounters().get(Rejection.FRAME_MALFORMED)).isEqualTo(1);
    }

    private void assertClosedAfter(NetSocket raw, Buffer bytes) {
        Await.result(good.send(toServer, TestNodes.data(100, 8)));
        assertThat(Await.next(received).sequence()).isEqualTo(100);

        Promise<Void> closed = Promise.promise();
        raw.closeHandler(v -> closed.tryComplete());
        raw.write(bytes);
        Await.result(closed.future(), Duration.ofSeconds(10));

        Await.result(good.send(toServer, TestNodes.data(101, 8)));
        assertThat(Await.next(received).sequence()).as("frames from the good peer after the bad one").isEqualTo(101);
        assertThat(received).as("nothing of the bad stream is delivered").isEmpty();
    }

    @Test
    void aStreamEndingInsideAFrameDeliversNothingOfIt() {
        Buffer whole = FrameCodec.encode(TestNodes.data(1, 1000));
        NetSocket raw = RawHandshake.connect(nodes.vertx, toServer, nodes.security, BAD_PEER);
        Await.result(raw.write(whole.getBuffer(0, 500)));
        Await.result(raw.close());

        Await.result(good.send(toServer, TestNodes.data(2, 8)));
        assertThat(Await.next(received).sequence()).isEqualTo(2);
        assertThat(received).isEmpty();
    }

    @Test
    void malformedAndUnsealedDatagramsAreDroppedCountedAndValidOnesStillArrive() {
        BlockingQueue<Datagram> datagrams = new LinkedBlockingQueue<>();
        server.datagramHandler(datagrams::add);
        DatagramSocket raw = nodes.vertx.createDatagramSocket();
        try {
            Buffer valid = FrameCodec.encode(TestNodes.data(5, 10));
            Await.result(raw.send(Buffer.buffer("not a frame at all, just text"), toServer.address().udpPort(), "127.0.0.1"));
            Await.result(raw.send(valid.getBuffer(0, 20), toServer.address().udpPort(), "127.0.0.1"));
            Await.result(raw.send(valid, toServer.address().udpPort(), "127.0.0.1"));
            Await.result(good.sendDatagram(toServer, TestNodes.data(6, 10)));

            assertThat(Await.next(datagrams).frame().sequence()).isEqualTo(6);
            Await.until(() -> server.securityCounters().total() == 3, () -> "three refusals: " + server.securityCounters());
        } finally {
            raw.close();
        }
    }

    private static Buffer patched(Buffer frame, int offset, int value) {
        Buffer copy = frame.copy();
        copy.setInt(offset, value);
        return copy;
    }

    private static Buffer patchedByte(Buffer frame, int offset, int value) {
        Buffer copy = frame.copy();
        copy.setByte(offset, (byte) value);
        return copy;
    }
}
