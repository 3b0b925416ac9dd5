package dev.canopy.core.comm;

import static dev.canopy.core.comm.CommunicatorTest.text;
import static dev.canopy.core.comm.FlowControlTest.numbered;
import static dev.canopy.core.node.LocalJob.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.LocalJob;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** free(): what it releases, what fails, and how a freed context id is reused without stale messages. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CommunicatorFreeTest {

    private LocalJob job;

    @BeforeAll
    void startJob() {
        job = LocalJob.start("free", LocalJob.spreadOver(4, 2));
    }

    @AfterAll
    void stopJob() {
        job.close();
    }

    private <T> List<T> onEveryRank(List<Communicator> communicators, Function<Communicator, Future<T>> call) {
        List<Future<T>> futures = communicators.stream().map(call).toList();
        List<T> results = new ArrayList<>();
        futures.forEach(future -> results.add(Await.result(future, WAIT)));
        return results;
    }

    private static <T> T onContext(Communicator communicator, java.util.function.Supplier<T> read) {
        CommunicatorRuntime runtime = FlowControlTest.runtimeOf(communicator);
        return Await.result(runtime.onContext(() -> Future.succeededFuture(read.get())), WAIT);
    }

    @Test
    void aFreedContextIdIsReusedAndNoMessageOfTheFreedCommunicatorReachesItsSuccessor() {
        List<Communicator> old = onEveryRank(job.worlds(), world -> world.split(0, world.rank()));
        int id = old.get(0).contextId();
        CommunicatorRuntime receiver = FlowControlTest.runtimeOf(job.world(1));

        // Left unreceived, or in flight, when free starts: none of it may survive the free.
        Future<Void> stale = old.get(0).send(1, 5, text("stale"));
        // Larger than the bodies a receiver fetches ahead (half its 8 MiB window), so it waits for a receive.
        Future<Void> rendezvous = old.get(2).send(3, 5, numbered(0, 6 << 20));
        Future<Message> waiting = old.get(3).receive(0, 99);
        Await.result(stale, WAIT);

        onEveryRank(old, Communicator::free);

        assertThat(Await.failure(rendezvous, WAIT)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has been freed");
        assertThat(Await.failure(waiting, WAIT)).isInstanceOf(IllegalStateException.class);
        assertThat(Await.failure(old.get(0).send(1, 5, text("after")), WAIT)).hasMessageContaining("has been freed");
        assertThat(Await.failure(old.get(1).receive(0, 5), WAIT)).hasMessageContaining("has been freed");
        assertThat(Await.failure(old.get(1).split(0, 0), WAIT)).hasMessageContaining("has been freed");
        assertThat(onContext(job.world(1), () -> receiver.inbound().held(0)))
                .as("the discarded message's credit went back").isZero();

        List<Communicator> successor = onEveryRank(job.worlds(), world -> world.split(0, world.rank()));
        assertThat(successor).extracting(Communicator::contextId).containsOnly(id);
        Await.result(successor.get(0).send(1, 5, text("fresh")), WAIT);
        assertThat(Await.result(successor.get(1).receive(0, 5), WAIT).payload().toString()).isEqualTo("fresh");
        onEveryRank(successor, Communicator::free);
    }

    @Test
    void worldCannotBeFreed() {
        assertThat(Await.failure(job.world(0).free(), WAIT)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("WORLD cannot be freed");
    }

    @Test
    void agreementsChooseIdsFreedOnEveryParticipantFirstThenFreshOnes() {
        ContextIdOffer a = ContextIdOffer.of(9, Set.of(2, 3, 5));
        ContextIdOffer b = ContextIdOffer.of(12, Set.of(3, 5, 7));
        assertThat(ContextIdOffer.choose(List.of(a, b), 1)).containsExactly(3);
        assertThat(ContextIdOffer.choose(List.of(a, b), 4)).containsExactly(3, 5, 12, 13);
        assertThat(ContextIdOffer.read(b.appendTo(io.vertx.core.buffer.Buffer.buffer()), 0)).isEqualTo(b);
    }
}
