package dev.canopy.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.Future;
import io.vertx.core.net.NetServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Peers that leave, vanish or restart: callers learn fast and clearly, and traffic resumes when they return. */
class PeerFailureTest {

    private static final Duration FAST = Duration.ofSeconds(2);

    private final TestNodes nodes = new TestNodes();

    @AfterEach
    void tearDown() {
        nodes.close();
    }

    @Test
    void sendsToAGonePeerFailAtOnceWithTheReasonAndResumeWhenItIsBack() {
        Transport a = nodes.start("a");
        Transport b = nodes.start("b");
        Member toB = TestNodes.member("b", "s", b);
        BlockingQueue<Frame> received = new LinkedBlockingQueue<>();
        b.frameHandler(received::add);
        Await.result(a.send(toB, TestNodes.data(0, 8)));

        a.peerGone(toB.id(), "left the job (membership epoch 4)");
        long start = System.nanoTime();
        Throwable failure = Await.failure(a.send(toB, TestNodes.data(1, 8)), FAST);

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(FAST);
        assertThat(failure).isInstanceOf(PeerUnavailableException.class)
                .hasMessageContaining("b").hasMessageContaining("left the job (membership epoch 4)");
        assertThat(((PeerUnavailableException) failure).peer()).isEqualTo(toB.id());
        assertThat(Await.failure(a.sendDatagram(toB, TestNodes.data(2, 8)), FAST))
                .isInstanceOf(PeerUnavailableException.class);

        a.peerBack(toB.id());
        Await.result(a.send(toB, TestNodes.data(3, 8)));
        assertThat(Await.next(received).sequence()).isZero();
        assertThat(Await.next(received).sequence()).isEqualTo(3);
    }

    @Test
    void framesQueuedForAPeerThatGoesAwayFailAtOnce() {
        PausedReceiver stuck = new PausedReceiver(nodes.vertx, nodes.security);
        Transport a = nodes.start(TransportOptions.defaults().withNodeLabel("a")
                .withWriteQueue(64 * 1024, 64L * 1024 * 1024, Duration.ofMinutes(2)));
        Member toStuck = stuck.member("stuck");
        List<Future<Void>> sends = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            sends.add(a.send(toStuck, TestNodes.data(i, 64 * 1024)));
        }
        stuck.awaitConnection();
        Future<Void> last = sends.get(sends.size() - 1);
        assertThat(last.isComplete()).as("the last frame is still queued behind a receiver that does not read").isFalse();

        a.peerGone(toStuck.id(), "session expired");

        assertThat(Await.failure(last, FAST)).isInstanceOf(PeerUnavailableException.class)
                .hasMessageContaining("session expired");
        stuck.close();
    }

    @Test
    void sendsToAnAddressNobodyListensOnFailAfterBoundedAttempts() {
        NetServer probe = nodes.vertx.createNetServer().connectHandler(socket -> socket.close());
        int freePort = Await.result(probe.listen(0, "127.0.0.1")).actualPort();
        Await.result(probe.close());
        awaitNobodyListensOn(freePort);
        Transport a = nodes.start(TransportOptions.defaults().withNodeLabel("a")
                .withReconnect(Duration.ofMillis(500), 3, Duration.ofMillis(20)));
        Member nobody = new Member(NodeId.of("nobody"), Coordinates.ofHost("nobody"),
                new NodeAddress("127.0.0.1", freePort, freePort));

        long start = System.nanoTime();
        Throwable failure = Await.failure(a.send(nobody, TestNodes.data(0, 8)), FAST);

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(FAST);
        assertThat(failure).isInstanceOf(PeerUnavailableException.class)
                .hasMessageContaining("nobody").hasMessageContaining("127.0.0.1:" + freePort)
                .hasMessageContaining("after 3 attempts");
    }

    @Test
    void theConnectionIsReestablishedAfterThePeerRestartsOnTheSamePorts() throws InterruptedException {
        Transport a = nodes.start("a");
        Transport first = nodes.start("b");
        Member toB = TestNodes.member("b", "s", first);
        Await.result(a.send(toB, TestNodes.data(0, 8)));
        Await.result(first.close());

        Transport second = nodes.restartOnSamePorts(toB);
        BlockingQueue<Frame> received = new LinkedBlockingQueue<>();
        second.frameHandler(received::add);

        // A frame written before the sender has seen the old connection close is lost with it, as
        // with any TCP peer restart; the transport must then reconnect on its own.
        long sequence = 1;
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        Frame firstArrived = null;
        while (firstArrived == null && System.nanoTime() < deadline) {
            a.send(toB, TestNodes.data(sequence++, 8));
            firstArrived = received.poll(200, TimeUnit.MILLISECONDS);
        }
        assertThat(firstArrived).as("a frame reached the restarted peer").isNotNull();
        for (long next = sequence; next < sequence + 50; next++) {
            Await.result(a.send(toB, TestNodes.data(next, 8)));
        }
        long expected = firstArrived.sequence() + 1;
        while (expected < sequence + 50) {
            assertThat(Await.next(received).sequence()).isEqualTo(expected++);
        }
    }

    @Test
    void aPeerThatWasUnreachableIsReachedAgainOnceItListens() {
        Transport a = nodes.start(TransportOptions.defaults().withNodeLabel("a")
                .withReconnect(Duration.ofMillis(500), 2, Duration.ofMillis(20)));
        Transport first = nodes.start("b");
        Member toB = TestNodes.member("b", "s", first);
        Await.result(first.close());
        awaitNobodyListensOn(toB.address().tcpPort());

        assertThat(Await.failure(a.send(toB, TestNodes.data(0, 8)), FAST)).isInstanceOf(PeerUnavailableException.class)
                .hasMessageContaining("after 2 attempts");

        Transport second = nodes.restartOnSamePorts(toB);
        BlockingQueue<Frame> received = new LinkedBlockingQueue<>();
        second.frameHandler(received::add);
        Await.result(a.send(toB, TestNodes.data(1, 8)));
        assertThat(Await.next(received).sequence()).isEqualTo(1);
    }

    /** Waits until connecting to {@code port} is refused (a closed server's port may briefly accept). */
    private void awaitNobodyListensOn(int port) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (nodes.vertx.createNetClient().connect(port, "127.0.0.1")
                .compose(socket -> socket.close().map(true), refused -> Future.succeededFuture(false))
                .toCompletionStage().toCompletableFuture().join()) {
            assertThat(System.nanoTime()).as("port %d still accepts connections", port).isLessThan(deadline);
            Await.result(nodes.vertx.timer(20)); // back-off between probes
        }
    }
}
