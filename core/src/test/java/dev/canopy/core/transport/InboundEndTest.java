package dev.canopy.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.Member;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link Transport#awaitInboundEnd}: the end of a peer's connections comes after every frame it wrote. */
class InboundEndTest {

    private static final Duration LONG = Duration.ofMinutes(2);

    private final TestNodes nodes = new TestNodes();

    @AfterEach
    void tearDown() {
        nodes.close();
    }

    @Test
    void theEndOfAPeersConnectionComesAfterEveryFrameItWrote() {
        Transport sender = nodes.start("sender");
        Transport receiver = nodes.start("receiver");
        Member fromSender = TestNodes.member("sender", "s", sender);
        Member toReceiver = TestNodes.member("receiver", "s", receiver);
        BlockingQueue<Object> seen = new LinkedBlockingQueue<>();
        receiver.frameHandler(frame -> seen.add(frame.sequence()));
        Await.result(sender.send(toReceiver, TestNodes.data(0, 8)));
        assertThat(Await.next(seen)).isEqualTo(0L);

        Future<InboundEnd> end = receiver.awaitInboundEnd(fromSender, LONG);
        List<Future<Void>> sends = new ArrayList<>();
        for (int i = 1; i <= 200; i++) {
            sends.add(sender.send(toReceiver, TestNodes.data(i, 1024)));
        }
        Await.result(Future.all(sends));
        assertThat(end.isComplete()).as("the sender's connection is still open").isFalse();
        end.onSuccess(seen::add);
        Await.result(sender.close());

        for (long i = 1; i <= 200; i++) {
            assertThat(Await.next(seen)).isEqualTo(i);
        }
        assertThat(Await.next(seen)).isEqualTo(InboundEnd.CONNECTIONS_CLOSED);
        assertThat(Await.result(receiver.awaitInboundEnd(fromSender, LONG)))
                .as("asked again after the end").isEqualTo(InboundEnd.CONNECTIONS_CLOSED);
    }

    @Test
    void aPeerThatNeverConnectedOrStaysConnectedTimesOut() {
        Transport receiver = nodes.start("receiver");
        Transport silent = nodes.start("silent");
        Transport connected = nodes.start("connected");
        Await.result(connected.send(TestNodes.member("receiver", "s", receiver), TestNodes.data(0, 8)));

        assertThat(Await.result(receiver.awaitInboundEnd(TestNodes.member("silent", "s", silent), Duration.ofMillis(50))))
                .isEqualTo(InboundEnd.TIMED_OUT);
        assertThat(Await.result(receiver.awaitInboundEnd(TestNodes.member("connected", "s", connected),
                Duration.ofMillis(50)))).isEqualTo(InboundEnd.TIMED_OUT);
        assertThat(Await.result(receiver.awaitInboundEnd(TestNodes.member("silent", "s", silent), Duration.ZERO)))
                .isEqualTo(InboundEnd.TIMED_OUT);
    }

    @Test
    void closingTheTransportEndsEveryWait() {
        Transport receiver = nodes.start("receiver");
        Transport silent = nodes.start("silent");
        Future<InboundEnd> end = receiver.awaitInboundEnd(TestNodes.member("silent", "s", silent), LONG);

        Await.result(receiver.close());

        assertThat(Await.result(end)).isEqualTo(InboundEnd.TRANSPORT_CLOSED);
    }
}
