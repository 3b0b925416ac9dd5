package dev.canopy.core.comm;

import static dev.canopy.core.node.LocalJob.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.fault.HoldLayer;
import dev.canopy.core.internal.fault.Traffic;
import dev.canopy.core.internal.membership.MembershipEvent;
import dev.canopy.core.node.HeartbeatSettings;
import dev.canopy.core.node.LocalJob;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A member sends and then leaves at once: ZooKeeper's leave event can reach the receiver before the
 * frame's bytes. The sender's frames are held back (a {@link HoldLayer}) until the receiver has
 * seen the leave, so the race goes the bad way every time. Receives from the departed member wait
 * for its connection to close (a long departure grace keeps timing out of it), or for the grace.
 */
class LeaveAfterSendTest {

    private static final int SENDER = 1;
    private static final int RECEIVER = 0;
    /** Longer than any wait of the test: only a closed connection can end the wait. */
    private static final Duration NO_GRACE_IN_THIS_TEST = Duration.ofMinutes(2);
    /** FailureMonitor's window for confirming a deleted member znode (4 heartbeat periods) and a margin. */
    private static final Duration ZNODE_CONFIRMATION = HeartbeatSettings.DEFAULT_PERIOD.multipliedBy(4).plusSeconds(1);

    @Test
    void aFrameSentJustBeforeLeavingIsDeliveredEvenWhenTheLeaveIsSeenFirst() {
        AtomicReference<HoldLayer> hold = new AtomicReference<>();
        try (LocalJob job = LocalJob.start("leave-after-send", LocalJob.spreadOver(2, 1),
                (i, options) -> (i == SENDER ? holdingFrames(options, hold) : options)
                        .withDepartureGrace(NO_GRACE_IN_THIS_TEST))) {
            Communicator sender = job.world(SENDER);
            Communicator receiver = job.world(RECEIVER);
            Await.result(sender.send(RECEIVER, 1, Buffer.buffer("warm-up")), WAIT);
            assertThat(Await.result(receiver.receive(SENDER, 1), WAIT).payload().toString()).isEqualTo("warm-up");
            BlockingQueue<MembershipEvent> seenByReceiver = new LinkedBlockingQueue<>();
            job.node(RECEIVER).onMembershipEvent(seenByReceiver::add);

            Future<Message> lastWords = receiver.receive(SENDER, 2);
            Future<Message> fromAnyone = receiver.receive(Communicator.ANY_SOURCE, 3);
            Await.result(hold.get().hold(), WAIT);
            Future<Void> sent = sender.send(RECEIVER, 2, Buffer.buffer("last words"));
            Await.result(job.node(SENDER).leave(), WAIT);
            // Other events (a JOINED replayed by the membership cache when the listener was added) may come first.
            Await.until(WAIT, () -> seenByReceiver.stream().anyMatch(e -> e.kind() == MembershipEvent.Kind.LEFT),
                    () -> "the receiver sees the sender's member znode go; seen: " + seenByReceiver);
            long seen = System.nanoTime();
            // A znode going is confirmed by the transport: the leaver's heartbeats stopped with its (held) goodbye,
            // so within the confirmation window it counts as gone, and from then on sends to it fail at once.
            Await.until(WAIT, () -> System.nanoTime() - seen > ZNODE_CONFIRMATION.toNanos(),
                    () -> "the receiver's confirmation window has passed");
            assertThat(Await.failure(receiver.send(SENDER, 4, Buffer.buffer("too late")), WAIT))
                    .as("sends to a departed member fail at once").isInstanceOf(RankFailedException.class);
            Await.result(hold.get().release(), WAIT);

            Await.result(sent, WAIT);
            assertThat(Await.result(lastWords, WAIT).payload().toString()).isEqualTo("last words");

            Future<Message> afterLastWords = receiver.receive(SENDER, 2);
            assertThat(afterLastWords.isComplete()).as("its connection is still open").isFalse();
            assertThat(fromAnyone.isComplete()).isFalse();
            Await.result(job.node(SENDER).close(), WAIT);

            // Its goodbye was held with its frames, so ZooKeeper told first; the goodbye, once in, says it left.
            assertThat(Await.failure(afterLastWords, WAIT)).isInstanceOf(RankFailedException.class)
                    .hasMessageContaining("rank 1").hasMessageContaining("it left the job");
            assertThat(Await.failure(fromAnyone, WAIT)).isInstanceOf(RankFailedException.class);
        }
    }

    @Test
    void receivesFromADepartedMemberThatStaysConnectedFailAfterTheDepartureGrace() {
        Duration grace = Duration.ofMillis(300);
        try (LocalJob job = LocalJob.start("leave-grace", LocalJob.spreadOver(2, 1),
                (i, options) -> options.withDepartureGrace(grace))) {
            Await.result(job.world(SENDER).send(RECEIVER, 1, Buffer.buffer("connects")), WAIT);
            Await.result(job.world(RECEIVER).receive(SENDER, 1), WAIT);
            Future<Message> neverSent = job.world(RECEIVER).receive(SENDER, 2);

            long before = System.nanoTime();
            Await.result(job.node(SENDER).leave(), WAIT);

            assertThat(Await.failure(neverSent, WAIT)).isInstanceOf(RankFailedException.class)
                    .hasMessageContaining("rank 1");
            assertThat(Duration.ofNanos(System.nanoTime() - before)).isGreaterThanOrEqualTo(grace);
        }
    }

    private static NodeOptions holdingFrames(NodeOptions options, AtomicReference<HoldLayer> hold) {
        return options.withLayers(below -> {
            HoldLayer layer = new HoldLayer(below, Traffic.FRAMES);
            hold.set(layer);
            return layer;
        });
    }
}
