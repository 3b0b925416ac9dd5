package dev.canopy.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.node.Member;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A receiver that stops reading makes its sender's frames wait, in order, instead of failing: a full write queue
 * is a value to wait for ({@link Transport#drained}), not an exception. A producer that waits for it holds about
 * the per-peer limit; only a frame that waits longer than the drain timeout fails, with {@link BackPressureException}.
 */
class BackPressureTest {

    private static final int FRAME_PAYLOAD = 64 * 1024;
    private static final long FRAME_BYTES = FRAME_PAYLOAD + 48L;
    private static final long LIMIT = 4L * 1024 * 1024;

    private final TestNodes nodes = new TestNodes();

    @AfterEach
    void tearDown() {
        nodes.close();
    }

    @Test
    void aStalledReceiversFramesWaitInOrderAndAllArriveOnceItReads() {
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
        assertThat(sends).as("no send fails for a full queue").noneMatch(Future::failed);
        assertThat(sends.stream().filter(f -> !f.isComplete()).count()).as("sends waiting for the stalled peer")
                .isPositive();
        Future<Void> drained = sender.drained(toReceiver);
        TestNodes.handlersInPlace(sender); // drained() has looked at the queue
        assertThat(drained.isComplete()).as("drained() while 64 MiB wait for a stalled peer").isFalse();

        receiver.resume();
        Await.result(Future.all(sends));
        Await.result(drained);
        assertThat(Await.next(receiver.received).sequence()).isZero();
        for (int i = 1; i <= offered; i++) {
            assertThat(Await.next(receiver.received).sequence()).as("frames arrive in the order sent").isEqualTo(i);
        }
        assertThat(receiver.received).isEmpty();
        receiver.close();
    }

    /** Sends only when drained() says there is room: what it holds for the stalled peer stays about the limit. */
    @Test
    void aProducerThatWaitsForDrainHoldsAboutTheLimit() {
        PausedReceiver receiver = new PausedReceiver(nodes.vertx, nodes.security);
        Transport sender = nodes.start(TransportOptions.defaults().withNodeLabel("sender")
                .withWriteQueue(256 * 1024, LIMIT, Duration.ofMinutes(2)));
        Member toReceiver = receiver.member("receiver");
        Await.result(sender.send(toReceiver, TestNodes.data(0, 8)));
        receiver.awaitConnection();

        int offered = 1_000;
        Producer producer = new Producer(sender, toReceiver, offered);
        sender.context().runOnContext(v -> producer.next());
        Await.until(() -> producer.waitingForDrain, () -> "the producer to wait for drain; issued " + producer.issued);
        assertThat(producer.issued).as("frames issued before the stalled peer held it back").isLessThan(offered);

        receiver.resume();
        Await.result(producer.done.future());
        assertThat(producer.maxHeldBytes).as("bytes held for the peer at any send (limit %d)", LIMIT)
                .isLessThanOrEqualTo(LIMIT + FRAME_BYTES);
        assertThat(Await.next(receiver.received).sequence()).isZero();
        for (int i = 1; i <= offered; i++) {
            assertThat(Await.next(receiver.received).sequence()).isEqualTo(i);
        }
        receiver.close();
    }

    /** On the sender's context: waits for drained(), sends one frame, counts what it holds, and goes on. */
    private static final class Producer {
        final Transport sender;
        final Member to;
        final int frames;
        final Promise<Void> done = Promise.promise();
        volatile int issued;
        volatile boolean waitingForDrain;
        int completed;
        long maxHeldBytes;

        Producer(Transport sender, Member to, int frames) {
            this.sender = sender;
            this.to = to;
            this.frames = frames;
        }

        void next() {
            if (issued == frames) {
                return;
            }
            waitingForDrain = true;
            sender.drained(to).onSuccess(room -> {
                waitingForDrain = false;
                issued++;
                maxHeldBytes = Math.max(maxHeldBytes, (issued - completed) * FRAME_BYTES);
                sender.send(to, TestNodes.data(issued, FRAME_PAYLOAD)).onComplete(sent -> {
                    completed++;
                    if (sent.failed()) {
                        done.tryFail(sent.cause());
                    } else if (completed == frames) {
                        done.tryComplete();
                    }
                });
                next();
            });
        }
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
