package dev.canopy.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.fault.DelayLayer;
import dev.canopy.core.internal.fault.DropNextLayer;
import dev.canopy.core.internal.fault.DuplicateLayer;
import dev.canopy.core.internal.fault.HoldLayer;
import dev.canopy.core.internal.fault.ReorderLayer;
import dev.canopy.core.internal.fault.SeededLossLayer;
import dev.canopy.core.internal.fault.Traffic;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.node.Member;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The deterministic fault layers over real transports: each does exactly what it says, reproducibly. */
class FaultLayersTest {

    private static final long SEED = 424242L;

    private final TestNodes nodes = new TestNodes();
    private Transport sender;
    private Member receiver;
    private final BlockingQueue<Frame> received = new LinkedBlockingQueue<>();

    @BeforeEach
    void setUp() {
        sender = nodes.start("sender");
        Transport receiving = nodes.start("receiver");
        receiving.frameHandler(received::add);
        receiver = TestNodes.member("receiver", "s", receiving);
    }

    @AfterEach
    void tearDown() {
        nodes.close();
    }

    /** Sends sequences 0..count-1 through {@code layer}, then a marker straight through; returns what arrived before it. */
    private List<Long> sendThrough(Transport layer, int count) {
        List<Future<Void>> sends = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sends.add(layer.send(receiver, TestNodes.data(i, 8)));
        }
        Await.result(Future.all(sends));
        Await.result(sender.send(receiver, TestNodes.data(Long.MAX_VALUE, 0)));
        List<Long> arrived = new ArrayList<>();
        for (long sequence = Await.next(received).sequence(); sequence != Long.MAX_VALUE;
                sequence = Await.next(received).sequence()) {
            arrived.add(sequence);
        }
        return arrived;
    }

    @Test
    void seededLossDropsTheSameFramesForTheSameSeed() {
        List<Long> first = sendThrough(new SeededLossLayer(sender, Traffic.FRAMES, 0.3, SEED), 400);
        List<Long> second = sendThrough(new SeededLossLayer(sender, Traffic.FRAMES, 0.3, SEED), 400);
        List<Long> otherSeed = sendThrough(new SeededLossLayer(sender, Traffic.FRAMES, 0.3, SEED + 1), 400);

        assertThat(second).as("seed %d", SEED).isEqualTo(first);
        assertThat(otherSeed).isNotEqualTo(first);
        assertThat(first.size()).as("about 70%% of 400 survive, seed %d", SEED).isBetween(240, 320);
        assertThat(first).isSorted();
    }

    @Test
    void dropNextDropsExactlyTheNextFrames() {
        DropNextLayer layer = new DropNextLayer(sender, Traffic.FRAMES);
        layer.dropNext(3);

        assertThat(sendThrough(layer, 6)).containsExactly(3L, 4L, 5L);
        assertThat(layer.dropped()).isEqualTo(3);
        assertThat(sendThrough(layer, 2)).containsExactly(0L, 1L);
    }

    @Test
    void layersForDatagramsLeaveReliableFramesAlone() {
        DropNextLayer layer = new DropNextLayer(sender, Traffic.DATAGRAMS);
        layer.dropNext(5);

        assertThat(sendThrough(layer, 3)).containsExactly(0L, 1L, 2L);
        assertThat(layer.dropped()).isZero();
    }

    @Test
    void duplicateSendsChosenFramesTwice() {
        assertThat(sendThrough(new DuplicateLayer(sender, Traffic.FRAMES, 1.0, SEED), 3))
                .containsExactly(0L, 0L, 1L, 1L, 2L, 2L);
    }

    @Test
    void reorderSwapsAHeldFrameWithTheNextOne() {
        assertThat(sendThrough(new ReorderLayer(sender, Traffic.FRAMES, 1.0, SEED, Duration.ofSeconds(10)), 4))
                .containsExactly(1L, 0L, 3L, 2L);
    }

    @Test
    void aFrameHeldForReorderingIsReleasedAfterMaxHold() {
        ReorderLayer layer = new ReorderLayer(sender, Traffic.FRAMES, 1.0, SEED, Duration.ofMillis(50));

        Await.result(layer.send(receiver, TestNodes.data(7, 8)));

        assertThat(Await.next(received).sequence()).isEqualTo(7);
    }

    @Test
    void delayHoldsFramesAndKeepsTheirOrder() {
        DelayLayer layer = new DelayLayer(sender, Traffic.ALL, Duration.ofMillis(80));
        long start = System.nanoTime();

        List<Future<Void>> sends = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            sends.add(layer.send(receiver, TestNodes.data(i, 8)));
        }
        Await.result(Future.all(sends));

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(80));
        for (int i = 0; i < 20; i++) {
            assertThat(Await.next(received).sequence()).isEqualTo(i);
        }
    }

    @Test
    void holdKeepsFramesUntilReleasedThenSendsThemInOrder() {
        HoldLayer layer = new HoldLayer(sender, Traffic.FRAMES);
        Await.result(layer.hold());
        List<Future<Void>> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            held.add(layer.send(receiver, TestNodes.data(i, 8)));
        }
        Await.result(sender.send(receiver, TestNodes.data(99, 8)));
        assertThat(Await.next(received).sequence()).as("only the frame sent around the layer").isEqualTo(99);
        assertThat(held).noneMatch(Future::isComplete);

        Await.result(layer.release());
        Await.result(Future.all(held));
        Await.result(layer.send(receiver, TestNodes.data(3, 8)));

        for (int i = 0; i < 4; i++) {
            assertThat(Await.next(received).sequence()).isEqualTo(i);
        }
    }

    @Test
    void layersCompose() {
        DropNextLayer drop = new DropNextLayer(new DuplicateLayer(sender, Traffic.FRAMES, 1.0, SEED), Traffic.FRAMES);
        drop.dropNext(1);

        assertThat(sendThrough(drop, 3)).containsExactly(1L, 1L, 2L, 2L);
    }
}
