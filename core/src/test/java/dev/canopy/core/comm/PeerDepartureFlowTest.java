package dev.canopy.core.comm;

import static dev.canopy.core.comm.FlowControlTest.numbered;
import static dev.canopy.core.node.LocalJob.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.LocalJob;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A receiver that leaves while its sender waits for credit or for a clear-to-send wedges nothing. */
class PeerDepartureFlowTest {

    @Test
    void sendsWaitingForCreditOrForTheirBodyToBeAskedForFailWhenTheReceiverLeaves() {
        try (LocalJob job = LocalJob.start("flow-departure", LocalJob.spreadOver(2, 1),
                (i, options) -> options.withMessageLimits(FlowControlTest.SMALL))) {
            Communicator sender = job.world(0);
            List<Future<Void>> sent = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                sent.add(sender.send(1, 1, numbered(i, 16 << 10)));
            }
            Future<Void> rendezvous = sender.send(1, 2, numbered(0, 1 << 20));
            CommunicatorRuntime runtime = FlowControlTest.runtimeOf(sender);
            Await.until(WAIT, () -> Await.result(runtime.onContext(() -> Future.succeededFuture(
                    runtime.outbound(1).waitingSends())), WAIT) > 0, () -> "sends wait for credit");

            Await.result(job.node(1).leave(), WAIT);

            assertThat(Await.failure(rendezvous, WAIT)).isInstanceOf(RankFailedException.class)
                    .hasMessageContaining("rank 1");
            for (Future<Void> send : sent) {
                Await.until(WAIT, send::isComplete, () -> "every send completes or fails");
            }
            assertThat(sent.stream().filter(Future::failed).map(Future::cause))
                    .isNotEmpty().allMatch(e -> e instanceof RankFailedException);
            assertThat(Await.failure(sender.send(1, 1, numbered(0, 10)), WAIT)).isInstanceOf(RankFailedException.class);
        }
    }
}
