package dev.canopy.core.internal.failure;

import static dev.canopy.core.node.LocalJob.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.Message;
import dev.canopy.core.comm.RankFailedException;
import dev.canopy.core.internal.fault.HoldLayer;
import dev.canopy.core.internal.fault.Traffic;
import dev.canopy.core.node.HeartbeatSettings;
import dev.canopy.core.node.LocalJob;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real nodes on loopback with a real ZooKeeper whose sessions outlive every test here (the default 2 s of
 * {@link LocalJob} is raised to 30 s), so only the network evidence can fail a member: a crashed member's
 * reset connections, a silent member's missing heartbeats. A member that says goodbye has left, and is not
 * blamed for a failure it left because of.
 */
@Timeout(60)
class FailureDetectionTest {

    private static final Duration LONG_SESSION = Duration.ofSeconds(30);
    /** Generous for a 2-core shared machine; typical detection is a few milliseconds. */
    private static final Duration DETECTION_BOUND = Duration.ofSeconds(3);
    private static final int TAG = 5;

    @Test
    void aCrashedMembersPendingReceivesFailAsSoonAsItsConnectionsReset() {
        AtomicReference<CrashLayer> crash = new AtomicReference<>();
        try (LocalJob job = LocalJob.start("crash-detect", LocalJob.spreadOver(3, 1), (i, options) -> longSession(
                i == 2 ? crashable(options, crash) : options))) {
            connectEveryPair(job);
            Future<Message> fromVictim = job.world(0).receive(2, TAG);
            Future<Message> fromAnyone = job.world(1).receive(Communicator.ANY_SOURCE, TAG);

            long crashedAt = System.nanoTime();
            Await.result(crash.get().crash(), WAIT);

            RankFailedException failure = (RankFailedException) Await.failure(fromVictim, WAIT);
            Duration detection = Duration.ofNanos(System.nanoTime() - crashedAt);
            System.out.println("receive from the crashed rank failed after " + detection.toMillis() + " ms: " + failure.getMessage());
            assertThat(detection).isLessThan(DETECTION_BOUND);
            assertThat(failure.rank()).isEqualTo(2);
            assertThat(failure.rootCauseRank()).isEqualTo(2);
            assertThat(failure.reason()).contains("closed without a goodbye");
            assertThat(Await.failure(fromAnyone, WAIT)).isInstanceOf(RankFailedException.class).hasMessageContaining("rank 2");
            assertThat(Await.failure(job.world(1).send(2, TAG, Buffer.buffer("late")), WAIT))
                    .isInstanceOf(RankFailedException.class);
        }
    }

    @Test
    void silenceBeyondTheHeartbeatTimeoutIsAFailureEvenWithTheConnectionOpen() {
        AtomicReference<HoldLayer> silence = new AtomicReference<>();
        HeartbeatSettings fast = new HeartbeatSettings(Duration.ofMillis(50), Duration.ofMillis(600), 0.2);
        try (LocalJob job = LocalJob.start("silent", LocalJob.spreadOver(3, 1), (i, options) -> longSession(
                (i == 2 ? holding(options, silence) : options).withHeartbeat(fast)))) {
            connectEveryPair(job);
            Future<Message> fromSilent = job.world(0).receive(2, TAG);
            long silentAt = System.nanoTime();
            Await.result(silence.get().hold(), WAIT);

            RankFailedException failure = (RankFailedException) Await.failure(fromSilent, WAIT);
            Duration detection = Duration.ofNanos(System.nanoTime() - silentAt);
            System.out.println("silent rank failed after " + detection.toMillis() + " ms: " + failure.getMessage());
            assertThat(failure.reason()).contains("no heartbeat");
            assertThat(detection).isGreaterThanOrEqualTo(Duration.ofMillis(600 - 60)).isLessThan(DETECTION_BOUND.plusMillis(600));
        }
    }

    @Test
    void aMemberThatSaysGoodbyeHasLeftAndIsNotReportedAsFailed() {
        try (LocalJob job = LocalJob.start("goodbye", LocalJob.spreadOver(3, 1),
                (i, options) -> longSession(options).withDepartureGrace(Duration.ofMillis(200)))) {
            connectEveryPair(job);
            Future<Message> fromLeaver = job.world(0).receive(1, TAG);
            Await.result(job.node(1).leave(), WAIT);
            RankFailedException failure = (RankFailedException) Await.failure(fromLeaver, WAIT);
            assertThat(failure.reason()).isEqualTo("it left the job");
            assertThat(failure.rootCauseRank()).isEqualTo(1);
        }
    }

    /**
     * Rank 3 crashes; rank 1 sees it, gives up and leaves properly. Rank 0 was waiting for rank 1: its
     * failure names rank 1 as the rank that went, and rank 3 as the one that failed first (rank 1's goodbye
     * said so), so a program that drops the root cause drops the dead rank, not the healthy one that left.
     */
    @Test
    void aMemberThatLeavesBecauseAnotherFailedIsNotBlamedForTheFailure() {
        AtomicReference<CrashLayer> crash = new AtomicReference<>();
        try (LocalJob job = LocalJob.start("root-cause", LocalJob.spreadOver(4, 1), (i, options) -> longSession(
                i == 3 ? crashable(options, crash) : options))) {
            connectEveryPair(job);
            Future<Message> waitingForRank1 = job.world(0).receive(1, TAG);
            Future<Message> rank1WaitsForRank3 = job.world(1).receive(3, TAG);
            Await.result(crash.get().crash(), WAIT);
            Await.failure(rank1WaitsForRank3, WAIT);
            Await.result(job.node(1).leave(), WAIT);

            RankFailedException failure = (RankFailedException) Await.failure(waitingForRank1, WAIT);
            assertThat(failure.rank()).isEqualTo(1);
            assertThat(failure.rootCauseRank()).as(failure.getMessage()).isEqualTo(3);
            assertThat(failure.reason()).startsWith("it left the job after n3 failed");
        }
    }

    /** Every rank sends to and receives from every other, so every pair has its connections and heartbeats. */
    static void connectEveryPair(LocalJob job) {
        for (Communicator from : job.worlds()) {
            for (Communicator to : job.worlds()) {
                if (from != to) {
                    Await.result(from.send(to.rank(), 1, Buffer.buffer("hi")), WAIT);
                    Await.result(to.receive(from.rank(), 1), WAIT);
                }
            }
        }
    }

    static NodeOptions longSession(NodeOptions options) {
        return options.withSessionTimeout(LONG_SESSION);
    }

    static NodeOptions crashable(NodeOptions options, AtomicReference<CrashLayer> crash) {
        return options.withLayers(below -> {
            CrashLayer layer = new CrashLayer(below);
            crash.set(layer);
            return layer;
        });
    }

    private static NodeOptions holding(NodeOptions options, AtomicReference<HoldLayer> hold) {
        return options.withLayers(below -> {
            HoldLayer layer = new HoldLayer(below, Traffic.ALL);
            hold.set(layer);
            return layer;
        });
    }
}
