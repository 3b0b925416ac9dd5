package dev.canopy.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.frame.Frame;
import dev.canopy.core.frame.FrameType;
import dev.canopy.core.node.Member;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A receiver that stops reading cannot make the sender hold more than the per-peer limit: beyond
 * it sends fail at once with {@link BackPressureException}; what was accepted is delivered, in
 * order, once the receiver reads again.
 */
class BackPressureTest {

    private static final int FRAME_PAYLOAD = 64 * 1024;
    private static final long LIMIT = 4L * 1024 * 1024;

    private final TestNodes nodes = new TestNodes();

    @AfterEach
    void tearDown() {
        nodes.close();
    }

    @Test
    void aStalledReceiverBoundsWhatTheSenderHolds() {
        PausedReceiver receiver = new PausedReceiver(nodes.vertx, nodes.security);
        Transport sender = nodes.start(TransportOptions.defaults().withNodeLabel("sender")
                .withWriteQueue(256 * 1024, LIMIT, Duration.ofMinutes(2)));
        Member toReceiver = receiver.member("receiver");
        // Warm up: connect and see the first frame written.
        Await.result(sender.send(toReceiver, TestNodes.data(0, 8)));
        receiver.awaitConnection();

        // 1,000 frames of 64 KiB = 64 MiB offered, far beyond the limit and the kernel's socket buffers.
        int offered = 1_000;
        List<Future<Void>> sends = Await.result(onContextOf(sender, () -> {
            List<Future<Void>> all = new ArrayList<>();
            for (int i = 1; i <= offered; i++) {
                all.add(sender.send(toReceiver, TestNodes.data(i, FRAME_PAYLOAD)));
            }
            return all;
        }));

        long refused = sends.stream().filter(Future::failed).count();
        long held = sends.stream().filter(f -> !f.isComplete()).count();
        assertThat(refused).as("sends refused at once").isPositive();
        assertThat(sends.stream().filter(Future::failed).map(Future::cause))
                .allSatisfy(cause -> assertThat(cause).isInstanceOf(BackPressureException.class)
                        .hasMessageContaining("writeQueueLimitBytes"));
        assertThat(held * (FRAME_PAYLOAD + 48L)).as("bytes the sender holds for the stalled peer")
                .isLessThanOrEqualTo(LIMIT);

        receiver.resume();
        List<Future<Void>> accepted = sends.stream().filter(f -> !f.failed()).toList();
        Await.result(Future.all(accepted));
        assertThat(Await.next(receiver.received).sequence()).isZero();
        long expectedCount = accepted.size();
        long previous = 0;
        for (int i = 0; i < expectedCount; i++) {
            Frame frame = Await.next(receiver.received);
            assertThat(frame.sequence()).as("accepted frames arrive in order").isGreaterThan(previous);
            assertThat(sends.get((int) frame.sequence() - 1).failed()).isFalse();
            previous = frame.sequence();
        }
        assertThat(receiver.received).isEmpty();
        receiver.close();
    }

    @Test
    void framesWaitingLongerThanTheDrainTimeoutFailWithBackPressure() {
        PausedReceiver receiver = new PausedReceiver(nodes.vertx, nodes.security);
        Transport sender = nodes.start(TransportOptions.defaults().withNodeLabel("sender")
                .withWriteQueue(64 * 1024, 64L * 1024 * 1024, Duration.ofMillis(300)));
        Member toReceiver = receiver.member("receiver");
        List<Future<Void>> sends = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            sends.add(sender.send(toReceiver, new Frame(FrameType.DATA, TestNodes.JOB, 0, 0, 0, 1, 0, i,
                    io.vertx.core.buffer.Buffer.buffer(new byte[FRAME_PAYLOAD]))));
        }
        Future<Void> last = sends.get(sends.size() - 1);

        Throwable failure = Await.failure(last, Duration.ofSeconds(10));

        assertThat(failure).isInstanceOf(BackPressureException.class).hasMessageContaining("drainTimeout");
        receiver.close();
    }

    private static <T> Future<T> onContextOf(Transport transport, java.util.function.Supplier<T> action) {
        CompletableFuture<T> result = new CompletableFuture<>();
        transport.context().runOnContext(v -> result.complete(action.get()));
        return Future.fromCompletionStage(result);
    }
}
