package dev.canopy.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameCodec;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.internal.security.Rejection;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One TCP connection per pair of members, used in both directions, over real sockets on 127.0.0.1: a reply goes
 * back on the connection the request came on; two members dialling each other at once end with the connection the
 * lower one dialled, losing and reordering no frame; a dialled member that restarts is reached again both ways; a
 * member that keeps dialling holds one spare connection (each new one closes the older, also when the member is
 * declared gone); and
 * whoever answers a dial without being the member dialled (without the secret, or with it but under another identity)
 * reads nothing but the client's hello and gets nothing delivered.
 */
class PairConnectionTest {

    private static final int FRAMES = 50;

    /** One event loop: both members' first sends run in one task, so both dial before either hears of the other. */
    private final TestNodes nodes = new TestNodes(1);

    @AfterEach
    void tearDown() {
        nodes.close();
    }

    @Test
    void aReplyGoesBackOnTheConnectionTheRequestCameOn() {
        Transport a = nodes.start("a");
        Transport b = nodes.start("b");
        BlockingQueue<Frame> atA = new LinkedBlockingQueue<>();
        a.frameHandler(atA::add);
        b.frameHandler(request -> b.send(TestNodes.member("a", "s", a), TestNodes.data(request.sequence() + 1000, 8)));
        TestNodes.handlersInPlace(a);
        TestNodes.handlersInPlace(b);

        for (long sequence = 0; sequence < 10; sequence++) {
            Await.result(a.send(TestNodes.member("b", "s", b), TestNodes.data(sequence, 8)));
            assertThat(Await.next(atA).sequence()).isEqualTo(sequence + 1000);
        }
        assertThat(inbound(a)).as("connections b dialled to a").isZero();
        assertThat(inbound(b)).as("connections a dialled to b").isEqualTo(1);
    }

    @Test
    void membersDiallingEachOtherAtOnceEndWithOneConnectionAndEveryFrameInOrder() {
        long declines = 0;
        for (int round = 0; round < 10; round++) {
            Transport one = nodes.start("one-" + round);
            Transport two = nodes.start("two-" + round);
            boolean oneIsLower = VertxTransport.PAIR_ORDER.compare(one.localAddress(), two.localAddress()) < 0;
            Transport lower = oneIsLower ? one : two;
            Transport higher = oneIsLower ? two : one;
            BlockingQueue<Frame> atLower = new LinkedBlockingQueue<>();
            BlockingQueue<Frame> atHigher = new LinkedBlockingQueue<>();
            lower.frameHandler(atLower::add);
            higher.frameHandler(atHigher::add);
            TestNodes.handlersInPlace(lower);
            TestNodes.handlersInPlace(higher);

            Promise<List<Future<Void>>> sent = Promise.promise();
            lower.context().runOnContext(v -> {
                List<Future<Void>> sends = new ArrayList<>();
                for (int i = 0; i < FRAMES; i++) {
                    sends.add(lower.send(TestNodes.member("h", "s", higher), TestNodes.data(i, 16)));
                    sends.add(higher.send(TestNodes.member("l", "s", lower), TestNodes.data(i, 16)));
                }
                sent.complete(sends);
            });
            Await.result(Future.all(Await.result(sent.future())));

            for (int i = 0; i < FRAMES; i++) {
                assertThat(Await.next(atHigher).sequence()).as("round %d, frame %d at the higher", round, i).isEqualTo(i);
                assertThat(Await.next(atLower).sequence()).as("round %d, frame %d at the lower", round, i).isEqualTo(i);
            }
            Await.until(() -> inbound(lower) == 0 && inbound(higher) == 1, () -> "one connection, dialled by the lower: "
                    + inbound(lower) + " dialled by the higher, " + inbound(higher) + " by the lower");
            declines += Await.result(((VertxTransport) lower).declinedConnections());
            assertThat(atLower).isEmpty();
            assertThat(atHigher).isEmpty();
        }
        assertThat(declines).as("rounds in which both dialled and the lower declined the higher's dial").isPositive();
    }

    @Test
    void aDialledMemberThatRestartsIsReachedAgainBothWays() throws InterruptedException {
        Transport a = nodes.start("a");
        Transport first = nodes.start("b");
        Member toB = TestNodes.member("b", "s", first);
        Await.result(a.send(toB, TestNodes.data(0, 8)));
        Await.result(first.send(TestNodes.member("a", "s", a), TestNodes.data(0, 8)));
        Await.result(first.close());

        Transport second = nodes.restartOnSamePorts(toB);
        BlockingQueue<Frame> atB = new LinkedBlockingQueue<>();
        BlockingQueue<Frame> atA = new LinkedBlockingQueue<>();
        second.frameHandler(atB::add);
        a.frameHandler(atA::add);
        TestNodes.handlersInPlace(second);
        TestNodes.handlersInPlace(a);

        // The restarted member dials; a frame a writes before it has seen the old connection close is lost with it.
        Await.result(second.send(TestNodes.member("a", "s", a), TestNodes.data(1, 8)));
        assertThat(Await.next(atA).sequence()).isEqualTo(1);
        Frame arrived = null;
        long sequence = 1;
        while (arrived == null) {
            a.send(toB, TestNodes.data(sequence++, 8));
            arrived = atB.poll(200, TimeUnit.MILLISECONDS);
        }
        Await.result(a.send(toB, TestNodes.data(sequence, 8)));
        while (arrived.sequence() < sequence) {
            arrived = Await.next(atB);
        }
        assertThat(arrived.sequence()).isEqualTo(sequence);
    }

    @Test
    void aMemberThatKeepsDiallingHoldsOneSpareConnectionAndTheOlderAreClosed() {
        Transport a = nodes.start("a");
        Member toA = TestNodes.member("a", "s", a);
        NodeAddress insider = new NodeAddress("127.0.0.1", 9, 9);
        List<RawHandshake.Connection> dials = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            dials.add(RawHandshake.connect(nodes.vertx, toA, nodes.security, insider, Buffer.buffer()));
        }

        for (int i = 0; i < 4; i++) {
            Await.result(dials.get(i).closed());
        }
        Await.until(() -> inbound(a) == 1, () -> "one spare connection left open: " + inbound(a));
        RawHandshake.Connection latest = dials.get(4);
        assertThat(latest.closed().isComplete()).as("the latest dial stays open").isFalse();
        // The spare kept is the pair's connection: a's first frame to the insider goes on it.
        Buffer read = Buffer.buffer();
        latest.socket().handler(read::appendBuffer);
        Await.result(a.send(new Member(NodeId.of("insider"), toA.coordinates(), insider), TestNodes.data(7, 8)));
        Await.until(() -> read.length() >= FrameCodec.HEADER_LENGTH + 8, () -> "the frame on the latest connection: "
                + read.length() + " bytes");
        assertThat(read.getLong(FrameCodec.SEQUENCE_OFFSET)).as("the sequence of the frame read").isEqualTo(7);
    }

    @Test
    void aMemberDeclaredGoneKeepsOnlyItsNewerConnection() {
        Transport a = nodes.start("a");
        Transport b = nodes.start("b");
        Member toB = TestNodes.member("b", "s", b);
        BlockingQueue<Frame> atA = new LinkedBlockingQueue<>();
        a.frameHandler(atA::add);
        TestNodes.handlersInPlace(a);
        Await.result(b.send(TestNodes.member("a", "s", a), TestNodes.data(0, 8)));
        assertThat(Await.next(atA).sequence()).isZero();
        Await.result(a.send(toB, TestNodes.data(0, 8))); // a adopts b's connection
        // b dials anew (as after a restart) while its first connection is still in use: the newer is the spare.
        RawHandshake.Connection newer = RawHandshake.connect(nodes.vertx, TestNodes.member("a", "s", a), nodes.security,
                b.localAddress(), Buffer.buffer());
        Await.until(() -> inbound(a) == 2, () -> "both of b's connections accepted: " + inbound(a));

        a.peerGone(toB.id(), "declared gone by the test");

        Await.until(() -> inbound(a) == 1, () -> "the older connection closed: " + inbound(a) + " open");
        assertThat(newer.closed().isComplete()).as("the newer connection stays the spare").isFalse();
    }

    @Test
    void anImpostorWithoutTheSecretAnsweringADialReadsOnlyTheHelloAndDeliversNothing() {
        TransportSecurity foreign = TransportSecurity.of(JobSecret.generate(), JobId.of("transport-test"));
        assertImpostorGetsNothing(foreign, null, Rejection.HANDSHAKE_BAD_PROOF);
    }

    @Test
    void aMemberAnsweringForAnotherReadsOnlyTheHelloAndDeliversNothing() {
        assertImpostorGetsNothing(nodes.security, new NodeAddress("127.0.0.1", 9, 9), Rejection.HANDSHAKE_WRONG_PEER);
    }

    /**
     * Lets an impostor listen where a member is expected: it answers every dial with a server hello for
     * {@code security}, as {@code claimed} (the dialled address when null), and forged frames right behind it.
     */
    private void assertImpostorGetsNothing(TransportSecurity security, NodeAddress claimed, Rejection expected) {
        Transport dialler = nodes.start(TransportOptions.defaults().withNodeLabel("dialler")
                .withReconnect(Duration.ofSeconds(2), 2, Duration.ofMillis(20)));
        BlockingQueue<Frame> delivered = new LinkedBlockingQueue<>();
        dialler.frameHandler(delivered::add);
        Buffer read = Buffer.buffer();
        NetServer impostor = nodes.vertx.createNetServer();
        NodeAddress[] at = new NodeAddress[1];
        impostor.connectHandler(socket -> {
            boolean[] answered = {false};
            socket.handler(chunk -> {
                read.appendBuffer(chunk);
                if (!answered[0]) {
                    answered[0] = true;
                    socket.write(impostorHello(security, claimed == null ? at[0] : claimed, chunk));
                }
            });
        });
        Await.result(impostor.listen(0, "127.0.0.1"));
        try {
            at[0] = new NodeAddress("127.0.0.1", impostor.actualPort(), 9);
            Member victim = new Member(NodeId.of("victim"), TestNodes.member("v", "s", dialler).coordinates(), at[0]);
            Buffer secret = Buffer.buffer("secret payload for the member only");

            assertThat(Await.failure(dialler.send(victim, TestNodes.data(0, 1, 1, secret))))
                    .isInstanceOf(PeerUnavailableException.class).hasMessageContaining(expected.name());
            assertThat(dialler.securityCounters().get(expected)).isEqualTo(2);
            assertThat(delivered).as("nothing the impostor sent is delivered").isEmpty();
            assertThat(onlyClientHellos(read)).as("the impostor read only client hellos: " + read.length() + " bytes")
                    .isEqualTo(2);
        } finally {
            Await.result(impostor.close());
        }
    }

    /** A server hello answering the client hello at the start of {@code clientBytes}, then two forged data frames. */
    private static Buffer impostorHello(TransportSecurity security, NodeAddress claimed, Buffer clientBytes) {
        Hello.ClientHello hello;
        try {
            HandshakeReader.Message message = (HandshakeReader.Message) new HandshakeReader().feed(clientBytes);
            hello = (Hello.ClientHello) Hello.decode(message.frame(), Hello.Kind.CLIENT_HELLO);
        } catch (Hello.Refused e) {
            throw new AssertionError(e);
        }
        Handshake handshake = new Handshake(security, PeerIdentity.of(claimed, "impostor"));
        byte[] nonce = Handshake.nonce();
        return FrameCodec.encode(Hello.serverHello(handshake.job(), nonce, handshake.serverProof(hello, nonce),
                        handshake.self()))
                .appendBuffer(FrameCodec.encode(TestNodes.data(1, 0, 1, Buffer.buffer("forged"))))
                .appendBuffer(FrameCodec.encode(TestNodes.data(1, 0, 2, Buffer.buffer("forged"))));
    }

    /** How many frames {@code bytes} holds, failing unless every one is a client hello. */
    private static int onlyClientHellos(Buffer bytes) {
        int count = 0;
        Buffer rest = bytes;
        while (rest.length() > 0) {
            HandshakeReader.Step step = new HandshakeReader().feed(rest);
            assertThat(step).as("a whole handshake message").isInstanceOf(HandshakeReader.Message.class);
            HandshakeReader.Message message = (HandshakeReader.Message) step;
            assertThat(message.frame().type()).isEqualTo(FrameType.HELLO);
            try {
                Hello.decode(message.frame(), Hello.Kind.CLIENT_HELLO);
            } catch (Hello.Refused e) {
                throw new AssertionError("not a client hello: " + e.getMessage(), e);
            }
            count++;
            rest = message.rest();
        }
        return count;
    }

    private static int inbound(Transport transport) {
        return Await.result(((VertxTransport) transport).inboundConnections());
    }
}
