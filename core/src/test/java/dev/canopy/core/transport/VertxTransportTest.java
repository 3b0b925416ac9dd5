package dev.canopy.core.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameCodec;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.node.Member;
import dev.canopy.core.testing.Await;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Real transports on 127.0.0.1 exchanging frames and datagrams. */
class VertxTransportTest {

    private final TestNodes nodes = new TestNodes();

    @AfterEach
    void tearDown() {
        nodes.close();
    }

    @Test
    void aFrameArrivesWhole() {
        Transport a = nodes.start("a");
        Transport b = nodes.start("b");
        BlockingQueue<Frame> received = new LinkedBlockingQueue<>();
        b.frameHandler(received::add);
        TestNodes.handlersInPlace(b);
        Frame sent = new Frame(FrameType.COLLECTIVE, TestNodes.JOB, 3, 0, 0, 1, 99, 123_456_789_012L,
                Buffer.buffer("hello over tcp"));

        Await.result(a.send(TestNodes.member("b", "s", b), sent));

        assertThat(Await.next(received)).isEqualTo(sent);
    }

    @Test
    void aLargeFrameRelayedAsItArrivedKeepsEveryByte() {
        // b forwards the frame it received to c: the payload is then a chain over b's socket reads, and
        // the sender copies it into the socket's direct memory part by part.
        Transport a = nodes.start("a");
        Transport b = nodes.start("b");
        Transport c = nodes.start("c");
        Member toC = TestNodes.member("c", "s", c);
        b.frameHandler(frame -> b.send(toC, frame));
        BlockingQueue<Frame> received = new LinkedBlockingQueue<>();
        c.frameHandler(received::add);
        TestNodes.handlersInPlace(b);
        TestNodes.handlersInPlace(c);
        byte[] bytes = new byte[3 << 20];
        new Random(13).nextBytes(bytes);
        Frame sent = new Frame(FrameType.DATA, TestNodes.JOB, 0, 0, 0, 2, 7, 1, Buffer.buffer(bytes));

        Await.result(a.send(TestNodes.member("b", "s", b), sent));

        Frame relayed = Await.next(received);
        assertThat(relayed.payload().length()).isEqualTo(bytes.length);
        assertThat(relayed.payload().getBytes()).isEqualTo(bytes);
        assertThat(relayed).isEqualTo(sent);
    }

    @Test
    void aTransportBoundToEveryInterfaceIsReachedAtTheAddressItAdvertises() {
        Transport everywhere = nodes.start(TransportOptions.defaults()
                .withHost("0.0.0.0", TransportOptions.LOOPBACK).withNodeLabel("everywhere"));
        Transport sender = nodes.start("sender");
        BlockingQueue<Frame> received = new LinkedBlockingQueue<>();
        everywhere.frameHandler(received::add);
        TestNodes.handlersInPlace(everywhere);

        assertThat(everywhere.localAddress().host()).isEqualTo("127.0.0.1");
        Await.result(sender.send(TestNodes.member("everywhere", "s", everywhere), TestNodes.data(5, 8)));

        assertThat(Await.next(received).sequence()).isEqualTo(5);
    }

    @Test
    void aWildcardAddressIsNeverAdvertised() {
        assertThatThrownBy(() -> TransportOptions.defaults().withHost("0.0.0.0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("advertised host 0.0.0.0 is a wildcard")
                .hasMessageContaining("withHost(host, advertisedHost)");
        assertThatThrownBy(() -> TransportOptions.defaults().withHost("::", "::"))
                .hasMessageContaining("advertised host :: is a wildcard");
    }

    @Test
    void framesFromSeveralThreadsArriveInTheOrderEachWasSent() throws InterruptedException {
        Transport a = nodes.start("a");
        Transport b = nodes.start("b");
        Member toB = TestNodes.member("b", "s", b);
        BlockingQueue<Frame> received = new LinkedBlockingQueue<>();
        b.frameHandler(received::add);
        TestNodes.handlersInPlace(b);
        int perSender = 5_000;
        List<Thread> senders = new ArrayList<>();
        List<Future<Void>> sends = Collections.synchronizedList(new ArrayList<>());
        for (int source = 0; source < 3; source++) {
            int rank = source;
            // Sizes from 0 to ~70 KB so frames span reads and several share one read.
            Thread sender = new Thread(() -> {
                for (int i = 0; i < perSender; i++) {
                    int size = (i * 7919) % (i % 50 == 0 ? 70_000 : 300);
                    sends.add(a.send(toB, TestNodes.data(rank, 1, i, Buffer.buffer(new byte[size]))));
                }
            });
            sender.start();
            senders.add(sender);
        }
        for (Thread sender : senders) {
            sender.join();
        }
        Await.result(Future.all(sends));

        long[] nextSequence = new long[3];
        for (int i = 0; i < 3 * perSender; i++) {
            Frame frame = Await.next(received);
            assertThat(frame.sequence()).as("sequence from rank %d", frame.source())
                    .isEqualTo(nextSequence[frame.source()]);
            nextSequence[frame.source()]++;
        }
        assertThat(nextSequence).containsOnly(perSender);
    }

    @Test
    void handlersRunOnTheTransportContextAndFuturesCompleteThere() {
        Transport a = nodes.start("a");
        Transport b = nodes.start("b");
        AtomicReference<Context> handlerContext = new AtomicReference<>();
        BlockingQueue<Frame> received = new LinkedBlockingQueue<>();
        b.frameHandler(frame -> {
            handlerContext.set(Vertx.currentContext());
            received.add(frame);
        });
        TestNodes.handlersInPlace(b);
        // The callbacks run after the future completes, so they report through a queue, not a reference
        // that Await.result could read before the callback ran.
        BlockingQueue<Optional<Context>> completionContexts = new LinkedBlockingQueue<>();

        Future<Void> sent = a.send(TestNodes.member("b", "s", b), TestNodes.data(0, 10))
                .onComplete(r -> completionContexts.add(Optional.ofNullable(Vertx.currentContext())));
        Await.next(received);
        Await.result(sent);
        // Added from this test thread after completion: it must still run on the transport's context.
        sent.onComplete(r -> completionContexts.add(Optional.ofNullable(Vertx.currentContext())));

        assertThat(handlerContext.get()).isSameAs(b.context());
        assertThat(Await.next(completionContexts)).as("callback added before completion").contains(a.context());
        assertThat(Await.next(completionContexts)).as("callback added after completion").contains(a.context());
    }

    @Test
    void datagramsCarryTheSendersAddress() {
        Transport a = nodes.start("a");
        Transport b = nodes.start("b");
        BlockingQueue<Datagram> received = new LinkedBlockingQueue<>();
        b.datagramHandler(received::add);
        TestNodes.handlersInPlace(b);
        Frame probe = new Frame(FrameType.PROBE_REQUEST, TestNodes.JOB, 0, 0, 0, 1, 0, 5, Buffer.buffer("t0"));

        Await.result(a.sendDatagram(TestNodes.member("b", "s", b), probe));

        Datagram datagram = Await.next(received);
        assertThat(datagram.frame()).isEqualTo(probe);
        assertThat(datagram.sender().port()).isEqualTo(a.localAddress().udpPort());
    }

    @Test
    void aSixtyKilobyteDatagramArrivesIntact() {
        Transport a = nodes.start("a");
        Transport b = nodes.start("b");
        BlockingQueue<Datagram> received = new LinkedBlockingQueue<>();
        b.datagramHandler(received::add);
        byte[] payload = new byte[60_000];
        new java.util.Random(60_000).nextBytes(payload);
        Frame large = TestNodes.data(0, 1, 3, Buffer.buffer(payload));

        Await.result(a.sendDatagram(TestNodes.member("b", "s", b), large));

        // Before the socket read whole datagrams, this one was cut to 2 KiB and dropped as malformed.
        assertThat(Await.next(received).frame()).isEqualTo(large);
    }

    @Test
    void theLargestDatagramArrivesAndOneByteMoreIsRefusedAtTheSender() {
        Transport a = nodes.start("a");
        Transport b = nodes.start("b");
        BlockingQueue<Datagram> received = new LinkedBlockingQueue<>();
        b.datagramHandler(received::add);
        Member toB = TestNodes.member("b", "s", b);
        // One UDP datagram: the seal (version, host length, port, host, sequence, MAC), the frame header, the payload.
        int seal = 4 + a.localAddress().host().length() + 8 + DatagramSeal.MAC_BYTES;
        int largestPayload = FrameCodec.MAX_UDP_PAYLOAD - seal - FrameCodec.HEADER_LENGTH;
        Frame largest = TestNodes.data(5, largestPayload);

        Await.result(a.sendDatagram(toB, largest));
        assertThat(Await.next(received).frame()).isEqualTo(largest);

        assertThat(Await.failure(a.sendDatagram(toB, TestNodes.data(6, largestPayload + 1)), Await.DEFAULT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("over the maximum of " + (FrameCodec.MAX_UDP_PAYLOAD - seal))
                .hasMessageContaining("maxDatagramBytes");
    }

    @Test
    void framesOverTheLimitsAreRefusedWithTheLimitNamed() {
        Transport a = nodes.start(TransportOptions.defaults().withMaxFrameBytes(4096));
        Transport b = nodes.start("b");
        Member toB = TestNodes.member("b", "s", b);

        assertThat(Await.failure(a.send(toB, TestNodes.data(0, 5000)), Await.DEFAULT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxFrameBytes");
        assertThat(Await.failure(a.sendDatagram(toB, TestNodes.data(0, 70_000)), Await.DEFAULT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxDatagramBytes");
    }
}
