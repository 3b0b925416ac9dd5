package dev.canopy.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameCodec;
import dev.canopy.core.internal.security.Rejection;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.datagram.DatagramSocket;
import io.vertx.core.net.NetSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The transport attacked over real sockets on 127.0.0.1: a client without the secret, a member of
 * another job, a recorded connection replayed, forged, replayed and reordered datagrams, a frame that
 * must wait for the rank table. Everything forged is refused and counted, nothing of it is delivered,
 * and the members keep talking.
 */
class TransportAttackTest {

    private final TestNodes nodes = new TestNodes();
    private final TransportSecurity foreign = TransportSecurity.of(JobSecret.generate(), JobId.of("transport-test"));
    private final BlockingQueue<Frame> received = new LinkedBlockingQueue<>();
    private Transport good;
    private Transport server;
    private Member toServer;

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

    @Test
    void aClientWithoutTheSecretIsRefusedAndNothingItSendsIsDelivered() {
        RawHandshake.Connection raw = RawHandshake.connect(nodes.vertx, toServer, foreign, good.localAddress(),
                Buffer.buffer());
        for (int i = 0; i < 10; i++) {
            raw.socket().write(FrameCodec.encode(TestNodes.data(1, 0, 1_000 + i, Buffer.buffer("forged"))));
        }
        Await.result(raw.closed(), Duration.ofSeconds(10));

        assertMembersStillTalk();
        assertThat(server.securityCounters().get(Rejection.HANDSHAKE_BAD_PROOF)).isEqualTo(1);
    }

    @Test
    void aMemberOfAnotherJobIsRefusedInBothDirections() {
        Transport otherSecret = nodes.start(TransportOptions.defaults().withNodeLabel("other-secret")
                .withReconnect(Duration.ofSeconds(2), 2, Duration.ofMillis(20)), foreign);
        Transport otherJob = nodes.start(TransportOptions.defaults().withNodeLabel("other-job")
                .withReconnect(Duration.ofSeconds(2), 2, Duration.ofMillis(20)),
                TransportSecurity.of(nodes.security.secret(), JobId.of("another-job")));

        assertThat(Await.failure(otherSecret.send(toServer, TestNodes.data(9, 8))))
                .isInstanceOf(PeerUnavailableException.class).hasMessageContaining("HANDSHAKE_BAD_PROOF");
        assertThat(Await.failure(otherJob.send(toServer, TestNodes.data(9, 8))))
                .isInstanceOf(PeerUnavailableException.class).hasMessageContaining("closed the connection during the"
                        + " handshake (does it have the same job secret?)");
        assertThat(Await.failure(server.send(TestNodes.member("o", "o", otherSecret), TestNodes.data(9, 8))))
                .isInstanceOf(PeerUnavailableException.class);

        assertMembersStillTalk();
        assertThat(otherSecret.securityCounters().get(Rejection.HANDSHAKE_BAD_PROOF)).as("the server's proof").isEqualTo(2);
        assertThat(server.securityCounters().get(Rejection.HANDSHAKE_WRONG_JOB)).as("refused before answering")
                .isEqualTo(2);
    }

    @Test
    void aRecordedConnectionReplayedIsRefused() {
        Buffer transcript = Buffer.buffer();
        NetSocket recorded = RawHandshake.connect(nodes.vertx, toServer, nodes.security, good.localAddress(), transcript)
                .socket();
        Buffer frame = FrameCodec.encode(TestNodes.data(0, 1, 7, Buffer.buffer("once")));
        recorded.write(frame);
        transcript.appendBuffer(frame);
        assertThat(Await.next(received).sequence()).isEqualTo(7);
        Await.result(recorded.close());

        NetSocket replay = Await.result(nodes.vertx.createNetClient().connect(toServer.address().tcpPort(), "127.0.0.1"));
        Promise<Void> closed = Promise.promise();
        replay.closeHandler(v -> closed.tryComplete());
        replay.write(transcript);
        Await.result(closed.future(), Duration.ofSeconds(10));

        assertMembersStillTalk();
        assertThat(server.securityCounters().get(Rejection.HANDSHAKE_BAD_PROOF)).as("the old proof, for an old nonce")
                .isEqualTo(1);
    }

    @Test
    void forgedAndReplayedDatagramsAreDroppedAndReorderedOnesAccepted() {
        BlockingQueue<Buffer> tapped = new LinkedBlockingQueue<>();
        DatagramSocket tap = Await.result(nodes.vertx.createDatagramSocket().handler(packet -> tapped.add(packet.data()))
                .listen(0, "127.0.0.1"));
        BlockingQueue<Datagram> delivered = new LinkedBlockingQueue<>();
        server.datagramHandler(delivered::add);
        try {
            Member tapMember = new Member(NodeId.of("tap"), Coordinates.ofHost("tap"),
                    new NodeAddress("127.0.0.1", 1, tap.localAddress().port()));
            List<Buffer> sealed = List.of(1, 2, 3).stream().map(i -> {
                Await.result(good.sendDatagram(tapMember, TestNodes.data(i, 10)));
                return Await.next(tapped);
            }).toList();
            int port = toServer.address().udpPort();

            for (int i : new int[] {2, 0, 1}) {
                Await.result(tap.send(sealed.get(i), port, "127.0.0.1"));
                assertThat(Await.next(delivered).frame().sequence()).as("reordered datagram %d", i + 1).isEqualTo(i + 1);
            }
            Await.result(tap.send(sealed.get(1), port, "127.0.0.1"));
            Await.result(tap.send(sealed.get(0), port, "127.0.0.1"));
            Buffer tampered = sealed.get(0).copy();
            tampered.setByte(tampered.length() - 30, (byte) (tampered.getByte(tampered.length() - 30) ^ 1));
            Await.result(tap.send(tampered, port, "127.0.0.1"));
            Transport outsider = nodes.start(TransportOptions.defaults().withNodeLabel("outsider"), foreign);
            Await.result(outsider.sendDatagram(toServer, TestNodes.data(99, 10)));

            Await.until(() -> server.securityCounters().total() == 4, () -> "four refusals: " + server.securityCounters());
            assertThat(server.securityCounters().get(Rejection.DATAGRAM_REPLAYED)).isEqualTo(2);
            assertThat(server.securityCounters().get(Rejection.DATAGRAM_BAD_MAC)).isEqualTo(2);
            Await.result(good.sendDatagram(toServer, TestNodes.data(4, 10)));
            assertThat(Await.next(delivered).frame().sequence()).as("the next authentic datagram").isEqualTo(4);
            assertThat(delivered).isEmpty();
        } finally {
            tap.close();
        }
    }

    @Test
    void framesWaitForTheSourceCheckThenAFrameFromAnotherRankIsRefused() {
        Promise<Void> ranksKnown = Promise.promise();
        AtomicInteger asked = new AtomicInteger();
        SourceCheck onlyRankZero = new SourceCheck() {
            @Override
            public Verdict check(NodeAddress peer, Frame frame) {
                asked.incrementAndGet();
                if (!ranksKnown.future().isComplete()) {
                    return Verdict.NOT_YET;
                }
                return frame.source() == 0 && peer.equals(good.localAddress()) ? Verdict.ACCEPT : Verdict.REJECT;
            }

            @Override
            public Future<Void> settled() {
                return ranksKnown.future();
            }
        };
        Transport checked = nodes.start(TransportOptions.defaults().withNodeLabel("checked"),
                nodes.security.withSourceCheck(onlyRankZero));
        BlockingQueue<Frame> checkedReceived = new LinkedBlockingQueue<>();
        checked.frameHandler(checkedReceived::add);
        Member toChecked = TestNodes.member("checked", "c", checked);

        for (int i = 1; i <= 3; i++) {
            Await.result(good.send(toChecked, TestNodes.data(0, 1, i, Buffer.buffer("early"))));
        }
        Await.until(() -> asked.get() >= 1, () -> "the source check was asked");
        assertThat(checkedReceived).as("undecided frames wait").isEmpty();
        checked.context().runOnContext(v -> ranksKnown.complete());
        for (int i = 1; i <= 3; i++) {
            assertThat(Await.next(checkedReceived).sequence()).isEqualTo(i);
        }

        Await.result(good.send(toChecked, TestNodes.data(5, 1, 4, Buffer.buffer("as rank 5"))));
        Await.until(() -> checked.securityCounters().get(Rejection.FRAME_WRONG_SOURCE) == 1,
                () -> "a frame claiming rank 5 refused: " + checked.securityCounters());
        assertThat(checkedReceived).as("the refused frame is not delivered").isEmpty();
    }

    /** The good member's frames still arrive, and nothing else was delivered. */
    private void assertMembersStillTalk() {
        Await.result(good.send(toServer, TestNodes.data(100, 8)));
        assertThat(Await.next(received).sequence()).isEqualTo(100);
        assertThat(received).as("nothing forged is delivered").isEmpty();
    }
}
