package dev.canopy.core.comm;

import static dev.canopy.core.node.LocalJob.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.LocalJob;
import dev.canopy.core.node.Member;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Point-to-point over WORLD between four real nodes on loopback (embedded ZooKeeper, TCP). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CommunicatorTest {

    private LocalJob job;

    @BeforeAll
    void startJob() {
        job = LocalJob.start("p2p", LocalJob.spreadOver(4, 2));
    }

    @AfterAll
    void stopJob() {
        job.close();
    }

    @Test
    void everyNodeHasTheSameWorldInRankOrder() {
        List<Member> reference = job.world(0).members();
        assertThat(reference).isSortedAccordingTo(Member.RANK_ORDER);
        for (int r = 0; r < job.size(); r++) {
            Communicator world = job.world(r);
            assertThat(world.rank()).isEqualTo(r);
            assertThat(world.size()).isEqualTo(4);
            assertThat(world.contextId()).isEqualTo(CommunicatorRuntime.WORLD_CONTEXT);
            assertThat(world.members()).isEqualTo(reference);
            assertThat(world.member(r).id()).isEqualTo(job.node(r).id());
            assertThat(world.member(r).address()).isEqualTo(job.node(r).address());
        }
    }

    @Test
    void everyPairExchangesMessagesBothWays() {
        int tag = 1;
        List<Future<?>> all = new ArrayList<>();
        List<Future<Message>> received = new ArrayList<>();
        for (int from = 0; from < job.size(); from++) {
            for (int to = 0; to < job.size(); to++) {
                if (from != to) {
                    all.add(job.world(from).send(to, tag, text(from + "->" + to)));
                    received.add(job.world(to).receive(from, tag));
                }
            }
        }
        Await.result(Future.all(all), WAIT);
        for (Future<Message> future : received) {
            Message message = Await.result(future, WAIT);
            assertThat(message.tag()).isEqualTo(tag);
            assertThat(message.payload().toString()).startsWith(message.source() + "->");
        }
        assertThat(received).hasSize(12);
    }

    @Test
    void messagesAreFifoPerSourceAndTagEvenWhenReceivedLater() {
        Communicator sender = job.world(0);
        Communicator receiver = job.world(1);
        List<Future<Void>> sent = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            sent.add(sender.send(1, 5 + (i % 2), text(Integer.toString(i))));
        }
        Await.result(Future.all(sent), WAIT);

        List<Integer> odd = new ArrayList<>();
        List<Integer> even = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            odd.add(Integer.parseInt(Await.result(receiver.receive(0, 6), WAIT).payload().toString()));
        }
        for (int i = 0; i < 100; i++) {
            even.add(Integer.parseInt(Await.result(receiver.receive(0, 5), WAIT).payload().toString()));
        }
        assertThat(odd).isSorted().allMatch(i -> i % 2 == 1).hasSize(100);
        assertThat(even).isSorted().allMatch(i -> i % 2 == 0).hasSize(100);
    }

    @Test
    void anySourceAndAnyTagMatchEveryoneOnceWhetherPostedBeforeOrAfter() {
        Communicator root = job.world(0);
        Future<Message> postedFirst = root.receive(Communicator.ANY_SOURCE, 20);
        Await.result(job.world(3).send(0, 20, text("early")), WAIT);
        assertThat(Await.result(postedFirst, WAIT).source()).isEqualTo(3);

        for (int r = 1; r < 4; r++) {
            Await.result(job.world(r).send(0, 30 + r, text("from " + r)), WAIT);
        }
        Set<Integer> sources = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            Message message = Await.result(root.receive(Communicator.ANY_SOURCE, Communicator.ANY_TAG), WAIT);
            assertThat(message.tag()).isEqualTo(30 + message.source());
            assertThat(message.payload().toString()).isEqualTo("from " + message.source());
            sources.add(message.source());
        }
        assertThat(sources).containsExactlyInAnyOrder(1, 2, 3);
    }

    @Test
    void collectiveTrafficNeverMatchesUserReceives() {
        Future<Message> user = job.world(0).receive(2, 7);
        Future<Message> anyUser = job.world(0).receive(Communicator.ANY_SOURCE, Communicator.ANY_TAG);

        Await.result(job.world(2).collectiveChannel().send(0, 7, text("collective")), WAIT);
        Message collective = Await.result(job.world(0).collectiveChannel().receive(2, 7), WAIT);
        assertThat(collective.payload().toString()).isEqualTo("collective");
        assertThat(user.isComplete()).isFalse();
        assertThat(anyUser.isComplete()).isFalse();

        Await.result(job.world(2).send(0, 7, text("user 1")), WAIT);
        Await.result(job.world(2).send(0, 7, text("user 2")), WAIT);
        assertThat(Await.result(user, WAIT).payload().toString()).isEqualTo("user 1");
        assertThat(Await.result(anyUser, WAIT).payload().toString()).isEqualTo("user 2");
    }

    @Test
    void aNodeCanSendToItself() {
        Await.result(job.world(2).send(2, 9, text("me")), WAIT);
        Message message = Await.result(job.world(2).receive(2, 9), WAIT);
        assertThat(message.source()).isEqualTo(2);
        assertThat(message.payload().toString()).isEqualTo("me");
    }

    @Test
    void badRanksAndTagsAreRefusedWithTheReason() {
        assertThat(Await.failure(job.world(0).send(4, 1, text("x")), WAIT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("send to rank 4 of a 4-rank");
        assertThat(Await.failure(job.world(0).send(1, -3, text("x")), WAIT))
                .hasMessageContaining("tags are 0 or more");
        assertThat(Await.failure(job.world(0).receive(-2, 1), WAIT))
                .hasMessageContaining("use ANY_SOURCE");
    }

    static Buffer text(String value) {
        return Buffer.buffer(value);
    }
}
