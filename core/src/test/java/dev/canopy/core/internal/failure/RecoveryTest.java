package dev.canopy.core.internal.failure;

import static dev.canopy.core.internal.failure.FailureDetectionTest.connectEveryPair;
import static dev.canopy.core.internal.failure.FailureDetectionTest.crashable;
import static dev.canopy.core.internal.failure.FailureDetectionTest.longSession;
import static dev.canopy.core.node.LocalJob.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.CommunicatorRevokedException;
import dev.canopy.core.comm.Message;
import dev.canopy.core.node.LocalJob;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ULFM-style recovery on real nodes: after a crash, one survivor's {@code revoke()} gets every survivor out of
 * an operation that would otherwise wait forever on a healthy rank; {@code agree} gives every survivor the
 * same AND, also when a member dies instead of voting; {@code shrink()} gives the survivors one new
 * communicator that works.
 */
@Timeout(90)
class RecoveryTest {

    private static final int VICTIM = 2;
    private static final int STUCK = 9;

    @Test
    void revokeThenAgreeThenShrinkAndContinue() {
        AtomicReference<CrashLayer> crash = new AtomicReference<>();
        try (LocalJob job = LocalJob.start("recovery", LocalJob.spreadOver(4, 1), (i, options) -> longSession(
                i == VICTIM ? crashable(options, crash) : options))) {
            connectEveryPair(job);
            // Rank 0 waits for healthy rank 3, which will never send: only a revocation gets it out.
            Future<Message> stuck = job.world(0).receive(3, STUCK);
            Future<Message> rank3WaitsForVictim = job.world(3).receive(VICTIM, STUCK);
            Await.result(crash.get().crash(), WAIT);
            Await.failure(rank3WaitsForVictim, WAIT);
            assertThat(stuck.isComplete()).isFalse();

            Await.result(job.world(3).revoke(), WAIT);
            Throwable revoked = Await.failure(stuck, WAIT);
            assertThat(revoked).isInstanceOf(CommunicatorRevokedException.class)
                    .hasMessageContaining("revoked by rank 3 after rank " + VICTIM + " failed");
            assertThat(((CommunicatorRevokedException) revoked).causeRank()).hasValue(VICTIM);
            Await.until(WAIT, () -> job.world(1).isRevoked(), () -> "rank 1 sees the revocation");
            assertThat(Await.failure(job.world(1).send(0, 1, Buffer.buffer("x")), WAIT))
                    .isInstanceOf(CommunicatorRevokedException.class);
            assertThat(Await.failure(job.world(0).collectiveChannel().receive(1, 1), WAIT))
                    .isInstanceOf(CommunicatorRevokedException.class);

            List<Integer> survivors = List.of(0, 1, 3);
            assertThat(agree(job, survivors, List.of(true, false, true))).containsOnly(false);
            assertThat(agree(job, survivors, List.of(true, true, true))).containsOnly(true);

            List<Future<Communicator>> shrinking = new ArrayList<>();
            survivors.forEach(rank -> shrinking.add(job.world(rank).shrink()));
            List<Communicator> shrunk = shrinking.stream().map(f -> Await.result(f, WAIT)).toList();
            assertThat(shrunk).extracting(Communicator::size).containsOnly(3);
            assertThat(shrunk).extracting(Communicator::contextId).containsOnly(shrunk.get(0).contextId());
            assertThat(shrunk).extracting(Communicator::rank).containsExactly(0, 1, 2);
            assertThat(shrunk.get(2).member(2).id()).isEqualTo(job.world(3).member(3).id());
            ringExchange(shrunk);
        }
    }

    @Test
    void agreementCompletesTheSameEverywhereWhenAMemberDiesInsteadOfVoting() {
        AtomicReference<CrashLayer> crash = new AtomicReference<>();
        try (LocalJob job = LocalJob.start("agree-crash", LocalJob.spreadOver(4, 1), (i, options) -> longSession(
                i == VICTIM ? crashable(options, crash) : options))) {
            connectEveryPair(job);
            List<Future<Boolean>> decisions = new ArrayList<>();
            for (int rank : List.of(0, 1, 3)) {
                decisions.add(job.world(rank).agree(true));
            }
            assertThat(decisions).noneMatch(Future::isComplete);
            Await.result(crash.get().crash(), WAIT);
            assertThat(decisions.stream().map(f -> Await.result(f, WAIT)).toList()).containsOnly(true);
        }
    }

    private static List<Boolean> agree(LocalJob job, List<Integer> ranks, List<Boolean> flags) {
        List<Future<Boolean>> decisions = new ArrayList<>();
        for (int i = 0; i < ranks.size(); i++) {
            decisions.add(job.world(ranks.get(i)).agree(flags.get(i)));
        }
        return decisions.stream().map(f -> Await.result(f, WAIT)).toList();
    }

    private static void ringExchange(List<Communicator> communicators) {
        int size = communicators.size();
        List<Future<Message>> received = new ArrayList<>();
        for (Communicator communicator : communicators) {
            Await.result(communicator.send((communicator.rank() + 1) % size, 7,
                    Buffer.buffer("from " + communicator.rank())), WAIT);
            received.add(communicator.receive((communicator.rank() + size - 1) % size, 7));
        }
        for (int rank = 0; rank < size; rank++) {
            assertThat(Await.result(received.get(rank), WAIT).payload().toString())
                    .isEqualTo("from " + (rank + size - 1) % size);
        }
    }
}
