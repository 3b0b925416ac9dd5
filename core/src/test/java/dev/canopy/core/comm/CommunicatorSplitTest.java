package dev.canopy.core.comm;

import static dev.canopy.core.comm.CommunicatorTest.text;
import static dev.canopy.core.node.LocalJob.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.LocalJob;
import dev.canopy.core.node.Member;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.Level;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** split, splitByLevel and their agreed context ids, on six real nodes over three sites. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CommunicatorSplitTest {

    private LocalJob job;

    @BeforeAll
    void startJob() {
        job = LocalJob.start("split", LocalJob.spreadOver(6, 3));
    }

    @AfterAll
    void stopJob() {
        job.close();
    }

    /** Runs {@code call} on every WORLD rank at once and returns the results by WORLD rank. */
    private <T> List<T> onEveryRank(Function<Communicator, Future<T>> call) {
        List<Future<T>> futures = job.worlds().stream().map(call).toList();
        List<T> results = new ArrayList<>();
        futures.forEach(future -> results.add(Await.result(future, WAIT)));
        return results;
    }

    @Test
    void splitGroupsByColorRanksByKeyAndAgreesOnContextIds() {
        // Colors: even and odd WORLD ranks; rank 5 stays out. Keys reverse the order.
        List<Communicator> children = onEveryRank(world -> world.split(
                world.rank() == 5 ? Communicator.UNDEFINED : world.rank() % 2, -world.rank()));

        assertThat(children.get(5)).isNull();
        List<Communicator> even = List.of(children.get(0), children.get(2), children.get(4));
        List<Communicator> odd = List.of(children.get(1), children.get(3));
        assertThat(even).extracting(Communicator::size).containsOnly(3);
        assertThat(even).extracting(Communicator::rank).containsExactly(2, 1, 0);
        assertThat(odd).extracting(Communicator::rank).containsExactly(1, 0);
        assertThat(even.get(0).members()).extracting(Member::id)
                .containsExactly(job.node(4).id(), job.node(2).id(), job.node(0).id());
        assertThat(even).extracting(Communicator::contextId).containsOnly(even.get(0).contextId());
        assertThat(odd).extracting(Communicator::contextId).containsOnly(odd.get(0).contextId());
        assertThat(Set.of(even.get(0).contextId(), odd.get(0).contextId(), CommunicatorRuntime.WORLD_CONTEXT)).hasSize(3);

        // Child ranks address child members: rank 0 of the even child is WORLD rank 4.
        Await.result(even.get(2).send(2, 4, text("to world rank 0")), WAIT);
        Message message = Await.result(even.get(0).receive(0, 4), WAIT);
        assertThat(message.source()).isEqualTo(0);
        assertThat(message.payload().toString()).isEqualTo("to world rank 0");
    }

    @Test
    void splitByLevelGroupsMembersThatShareTheGroupKey() {
        List<Communicator> sites = onEveryRank(world -> world.splitByLevel(Level.LAN));

        for (int r = 0; r < job.size(); r++) {
            Communicator site = sites.get(r);
            String mySite = job.node(r).coordinates().groupKey(Level.LAN);
            assertThat(site.size()).isEqualTo(2);
            assertThat(site.members()).allMatch(m -> m.coordinates().groupKey(Level.LAN).equals(mySite));
            assertThat(site.member(site.rank()).id()).isEqualTo(job.node(r).id());
        }
        assertThat(sites.stream().map(Communicator::contextId).collect(Collectors.toSet())).hasSize(3);

        List<Communicator> everyone = onEveryRank(world -> world.splitByLevel(Level.HEAVY_WAN));
        assertThat(everyone).allSatisfy(c -> assertThat(c.size()).isEqualTo(job.size()));
        assertThat(everyone).extracting(Communicator::rank).containsExactly(0, 1, 2, 3, 4, 5);
    }

    @Test
    void splitsOfSplitsGetFreshIdsAndTheirTrafficStaysApart() {
        List<Communicator> halves = onEveryRank(world -> world.split(world.rank() < 3 ? 0 : 1, world.rank()));
        List<Communicator> again = onEveryRank(world -> world.split(world.rank() < 3 ? 0 : 1, world.rank()));
        Set<Integer> used = new HashSet<>();
        halves.forEach(c -> used.add(c.contextId()));
        again.forEach(c -> assertThat(used).doesNotContain(c.contextId()));

        // Same ranks, same tag, two communicators: each receive gets its own communicator's message.
        Await.result(again.get(0).send(1, 3, text("again")), WAIT);
        Await.result(halves.get(0).send(1, 3, text("halves")), WAIT);
        assertThat(Await.result(halves.get(1).receive(0, 3), WAIT).payload().toString()).isEqualTo("halves");
        assertThat(Await.result(again.get(1).receive(0, 3), WAIT).payload().toString()).isEqualTo("again");

        List<Communicator> quarters = new ArrayList<>();
        List<Future<Communicator>> futures = halves.stream().map(h -> h.split(h.rank() == 0 ? 0 : 1, 0)).toList();
        futures.forEach(f -> quarters.add(Await.result(f, WAIT)));
        assertThat(quarters).extracting(Communicator::size).containsExactly(1, 2, 2, 1, 2, 2);
        assertThat(quarters.get(1).contextId()).isEqualTo(quarters.get(2).contextId()).isNotIn(used);
    }
}
