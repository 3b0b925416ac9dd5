package dev.canopy.core.comm;

import static dev.canopy.core.node.LocalJob.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.failure.Departure;
import dev.canopy.core.internal.failure.Evidence;
import dev.canopy.core.node.LocalJob;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import org.junit.jupiter.api.Test;

/**
 * An agreement decided without a live member's vote (the decider took it for gone, as a starved heartbeat makes a
 * node do): the members whose votes were counted return the decision, and the left-out member fails instead of
 * returning a result its own vote did not take part in (found as {@code agree(true, false, true)} returning true
 * everywhere on a loaded machine).
 */
class FalseSuspicionAgreementTest {

    @Test
    void aVoterTheDeciderTookForGoneFailsInsteadOfReturningTheOthersDecision() {
        try (LocalJob job = LocalJob.start("false-suspicion", LocalJob.spreadOver(3, 1))) {
            GroupCommunicator zero = (GroupCommunicator) job.world(0);
            zero.runtime().memberDeparted(Departure.failed(job.world(1).member(1).id(), Evidence.HEARTBEAT_MISSED,
                    "a suspicion made by the test"));
            Await.until(WAIT, () -> !zero.isAlive(1), () -> "rank 0 takes rank 1 for gone");

            Future<Boolean> atZero = job.world(0).agree(true);
            Future<Boolean> atTwo = job.world(2).agree(true);
            assertThat(Await.result(atZero, WAIT)).isTrue();
            Future<Boolean> atOne = job.world(1).agree(false);

            assertThat(Await.result(atTwo, WAIT)).isTrue();
            assertThat(Await.failure(atOne, WAIT)).isInstanceOf(RankFailedException.class)
                    .hasMessageContaining("decided without this node's vote");
        }
    }
}
