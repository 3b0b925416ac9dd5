package dev.canopy.collectives.soak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.emulation.DelayScheduler;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.core.testing.ManualClock;
import dev.canopy.core.transport.PeerUnavailableException;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.core.transport.TransportSecurity;
import dev.canopy.core.transport.VertxTransport;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link RetransmissionLayer} over a real transport pair on 127.0.0.1, on a clock the test moves: a frame with a
 * lost segment waits exactly one retransmission timeout, later frames to the peer wait behind it, and nothing is
 * dropped or reordered.
 */
class RetransmissionLayerTest {

    private static final long RTO_MS = 200;
    private static final long RTO_NANOS = RTO_MS * 1_000_000;
    private static final JobId JOB = JobId.of("retransmission-test");

    private final Vertx vertx = CanopyVertx.create();
    private final TransportSecurity security = TransportSecurity.of(JobSecret.generate(), JOB);
    private final List<Transport> transports = new ArrayList<>();
    private final ManualClock clock = new ManualClock(1_000_000_000L);
    private final ManualWakeUps wakeUps = new ManualWakeUps();

    /** Wake-ups the test runs by moving the clock. */
    private final class ManualWakeUps implements DelayScheduler {
        private record WakeUp(long deadlineNanos, Runnable task) {
        }

        private final List<WakeUp> pending = new ArrayList<>();

        @Override
        public synchronized void schedule(long deadlineNanos, Runnable task) {
            pending.add(new WakeUp(deadlineNanos, task));
        }

        synchronized List<Long> deadlines() {
            return pending.stream().map(WakeUp::deadlineNanos).toList();
        }

        /** Moves the clock to {@code nanos} and runs the wake-ups due by then, in deadline order. */
        void advanceTo(long nanos) {
            clock.setNanos(nanos);
            List<WakeUp> due;
            synchronized (this) {
                due = pending.stream().filter(w -> w.deadlineNanos() <= nanos)
                        .sorted((x, y) -> Long.compare(x.deadlineNanos(), y.deadlineNanos())).toList();
                pending.removeAll(due);
            }
            due.forEach(w -> w.task().run());
        }

        @Override
        public void close() {
        }
    }

    @AfterEach
    void tearDown() {
        transports.forEach(transport -> Await.result(transport.close()));
        Await.result(vertx.close());
    }

    @Test
    void aFrameWithALostSegmentArrivesOneTimeoutLateAndLaterFramesWaitBehindIt() {
        double rate = 0.5;
        long seed = 42;
        int frames = 12;
        int firstLost = firstLostFrame(rate, seed, frames);
        Transport a = start("a");
        Transport b = start("b");
        BlockingQueue<Frame> received = new LinkedBlockingQueue<>();
        b.frameHandler(received::add);
        RetransmissionLayer.LossCounts counts = new RetransmissionLayer.LossCounts();
        Transport lossy = new RetransmissionLayer(a, rate, RTO_MS, seed, counts, clock, wakeUps);
        long start = clock.nanoTime();

        List<Future<Void>> sends = new ArrayList<>();
        for (int i = 0; i < frames; i++) {
            sends.add(lossy.send(member("b", b), frame(i)));
        }

        for (int i = 0; i < firstLost; i++) {
            assertThat(Await.next(received).sequence()).as("frame %d, before the first lost one (seed %d)", i, seed)
                    .isEqualTo(i);
        }
        Await.until(() -> counts.frames.get() == frames, () -> "the layer took every frame");
        Await.until(() -> wakeUps.deadlines().size() == 1, () -> "one wake-up for the lost frame");
        assertThat(wakeUps.deadlines()).containsExactly(start + RTO_NANOS);
        assertThat(sends.subList(firstLost, frames)).noneMatch(Future::isComplete);

        wakeUps.advanceTo(start + RTO_NANOS - 1);
        assertThat(wakeUps.deadlines()).as("not due a nanosecond early").hasSize(1);
        wakeUps.advanceTo(start + RTO_NANOS);

        for (int i = firstLost; i < frames; i++) {
            assertThat(Await.next(received).sequence()).as("frame %d, behind the lost one", i).isEqualTo(i);
        }
        Await.result(Future.all(sends));
        assertThat(counts.frames.get()).isEqualTo(frames);
        assertThat(counts.delayedFrames.get()).isEqualTo(lostFrames(rate, seed, frames));
    }

    @Test
    void eachLostFrameWaitsItsOwnTimeoutFromWhenItWasSent() {
        Transport a = start("a");
        Transport b = start("b");
        BlockingQueue<Frame> received = new LinkedBlockingQueue<>();
        b.frameHandler(received::add);
        RetransmissionLayer.LossCounts counts = new RetransmissionLayer.LossCounts();
        Transport lossy = new RetransmissionLayer(a, 1.0, RTO_MS, 1, counts, clock, wakeUps);
        long start = clock.nanoTime();

        Future<Void> first = lossy.send(member("b", b), frame(0));
        Await.until(() -> wakeUps.deadlines().size() == 1, () -> "the first frame's wake-up");
        clock.setNanos(start + RTO_NANOS / 2);
        Future<Void> second = lossy.send(member("b", b), frame(1));
        // The layer reads the clock on the transport's context: the clock moves on only once it has the frame.
        Await.until(() -> counts.frames.get() == 2, () -> "the layer took the second frame");

        wakeUps.advanceTo(start + RTO_NANOS);
        assertThat(Await.next(received).sequence()).isEqualTo(0);
        Await.result(first);
        Await.until(() -> wakeUps.deadlines().contains(start + RTO_NANOS / 2 + RTO_NANOS),
                () -> "a wake-up one timeout after the second frame was sent: " + wakeUps.deadlines());
        assertThat(second.isComplete()).isFalse();

        wakeUps.advanceTo(start + RTO_NANOS / 2 + RTO_NANOS);
        assertThat(Await.next(received).sequence()).isEqualTo(1);
        Await.result(second);
    }

    @Test
    void closingFailsTheFramesStillAwaitingRetransmission() {
        Transport a = start("a");
        Transport b = start("b");
        Transport lossy = new RetransmissionLayer(a, 1.0, RTO_MS, 1, new RetransmissionLayer.LossCounts(),
                clock, wakeUps);

        Future<Void> waiting = lossy.send(member("b", b), frame(0));
        Await.result(lossy.close());

        assertThat(Await.failure(waiting)).isInstanceOf(PeerUnavailableException.class)
                .hasMessageContaining("awaited retransmission");
    }

    /** The index of the first frame (of one segment) the layer's seeded draw loses. */
    private static int firstLostFrame(double rate, long seed, int frames) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < frames; i++) {
            if (random.nextDouble() < rate) {
                assertThat(i).as("seed %d should send at least one frame before the first loss", seed).isPositive();
                return i;
            }
        }
        throw new AssertionError("seed " + seed + " loses none of " + frames + " frames");
    }

    private static long lostFrames(double rate, long seed, int frames) {
        SplittableRandom random = new SplittableRandom(seed);
        long lost = 0;
        for (int i = 0; i < frames; i++) {
            lost += random.nextDouble() < rate ? 1 : 0;
        }
        return lost;
    }

    private Transport start(String label) {
        Transport transport = Await.result(VertxTransport.start(vertx, TransportOptions.defaults().withNodeLabel(label),
                security));
        transports.add(transport);
        return transport;
    }

    private static Member member(String id, Transport transport) {
        return new Member(NodeId.of(id), new Coordinates("w", "s", "lan", "c", id), transport.localAddress());
    }

    /** A frame of one segment. */
    private static Frame frame(long sequence) {
        return new Frame(FrameType.DATA, JOB.frameKey(), 1, 0, 0, 1, 7, sequence, Buffer.buffer("segment"));
    }
}
