package dev.canopy.core.node;

import static dev.canopy.core.node.LocalJob.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.comm.Message;
import dev.canopy.core.comm.RankFailedException;
import dev.canopy.core.internal.membership.MembershipEvent;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Closing a node more than once (a program's close, then a shutdown hook's, then its test's or launcher's) is
 * harmless: the first close leaves the job with a goodbye and closes transport and ZooKeeper, later ones do
 * nothing and succeed, also while the first is still under way.
 */
@Timeout(60)
class NodeCloseTest {

    @Test
    void aSecondCloseIsANoOpAndTheOthersSeeOneCleanLeave() {
        try (LocalJob job = LocalJob.start("close-twice", LocalJob.spreadOver(2, 1))) {
            CanopyNode closing = job.node(1);
            Queue<MembershipEvent> seenByZero = new ConcurrentLinkedQueue<>();
            job.node(0).onMembershipEvent(seenByZero::add);
            Future<Message> waiting = job.world(0).receive(1, 1);

            Future<Void> first = closing.close();
            Future<Void> whileClosing = closing.close();
            Await.result(first, WAIT);
            Await.result(whileClosing, WAIT);
            Await.result(closing.close(), WAIT);
            Await.result(closing.leave(), WAIT);

            assertThat(closing.state()).isEqualTo(CanopyNode.State.CLOSED);
            RankFailedException failure = (RankFailedException) Await.failure(waiting, WAIT);
            assertThat(failure.reason()).isEqualTo("it left the job");
            Await.until(WAIT, () -> seenByZero.stream().anyMatch(event -> event.kind() == MembershipEvent.Kind.LEFT
                    && event.member().id().equals(closing.id())), () -> "rank 0 sees rank 1's member znode go");
        } // LocalJob closes every node once more
    }
}
