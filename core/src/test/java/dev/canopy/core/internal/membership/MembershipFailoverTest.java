package dev.canopy.core.internal.membership;

import static dev.canopy.core.internal.membership.MembershipParticipant.WAIT;
import static dev.canopy.core.internal.membership.MembershipParticipant.member;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.membership.testing.TestVertx;
import dev.canopy.core.internal.membership.testing.ZooKeeperServers;
import dev.canopy.core.node.JobId;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A ZooKeeper server dies under a running job: sessions move to the survivors and nobody is seen to leave,
 * whether the server was the one a node talked to or the ensemble's leader (then every client is
 * disconnected, SUSPENDED, while the survivors elect a new leader).
 */
@Tag("slow")
class MembershipFailoverTest {

    private static final Duration SESSION = Duration.ofSeconds(8);

    @Test
    void membershipSurvivesTheLossOfTheServerANodeIsConnectedTo() throws Exception {
        Vertx vertx = TestVertx.create();
        List<MembershipParticipant> participants = new ArrayList<>();
        try (TestingCluster cluster = ZooKeeperServers.cluster(3)) {
            try {
                runJobThroughFailover(vertx, cluster, participants);
            } finally {
                participants.forEach(MembershipParticipant::close);
            }
        } finally {
            Await.result(vertx.close(), WAIT);
        }
    }

    private static void runJobThroughFailover(Vertx vertx, TestingCluster cluster, List<MembershipParticipant> participants)
            throws Exception {
        JobId job = JobId.of("failover");
        for (int i = 0; i < 2; i++) {
            participants.add(new MembershipParticipant(vertx, cluster.getConnectString(), SESSION, job,
                    member("n" + i, "wan", "site-" + i, "h" + i, 6000 + 10 * i), 3, WAIT));
        }
        List<Future<MembershipView>> views = new ArrayList<>(participants.stream().map(MembershipParticipant::start).toList());
        Await.until(WAIT, () -> participants.stream().allMatch(p -> p.events.size() == 2),
                () -> "both early nodes see each other");

        InstanceSpec killed = cluster.findConnectionInstance(
                participants.get(0).session.client().getZookeeperClient().getZooKeeper());
        assertThat(cluster.killServer(killed)).isTrue();

        MembershipParticipant late = new MembershipParticipant(vertx, cluster.getConnectString(), SESSION, job,
                member("n2", "wan", "site-2", "h2", 6020), 3, WAIT);
        participants.add(late);
        views.add(late.start());

        List<MembershipView> agreed = views.stream().map(view -> Await.result(view, WAIT)).toList();
        assertThat(agreed).allSatisfy(view -> assertThat(view).isEqualTo(agreed.get(0)));
        assertThat(agreed.get(0).size()).isEqualTo(3);

        // The moved session still owns its member znode: a fresh client sees all three.
        ZooKeeperSession observer = Await.result(ZooKeeperSession.open(vertx, cluster.getConnectString(), SESSION,
                Duration.ofSeconds(10)), WAIT);
        List<String> registered = observer.client().getChildren().forPath("/canopy/jobs/failover/members");
        Await.result(observer.close(), WAIT);
        assertThat(registered).containsExactlyInAnyOrder("n0", "n1", "n2");
        assertThat(participants).allSatisfy(p -> assertThat(p.leaves()).isEmpty());
    }

    @Test
    void noMemberIsLostWhenTheEnsemblesLeaderDies() throws Exception {
        Vertx vertx = TestVertx.create();
        List<MembershipParticipant> participants = new ArrayList<>();
        try (TestingCluster cluster = ZooKeeperServers.cluster(3)) {
            try {
                JobId job = JobId.of("leader-loss");
                for (int i = 0; i < 3; i++) {
                    participants.add(new MembershipParticipant(vertx, cluster.getConnectString(), SESSION, job,
                            member("n" + i, "wan", "site-" + i, "h" + i, 6100 + 10 * i), 3, WAIT));
                }
                List<Queue<ConnectionState>> states = new ArrayList<>();
                for (MembershipParticipant participant : participants) {
                    Queue<ConnectionState> seen = new ConcurrentLinkedQueue<>();
                    participant.session.client().getConnectionStateListenable().addListener((client, state) -> seen.add(state));
                    states.add(seen);
                }
                Await.result(Future.all(participants.stream().map(MembershipParticipant::start).toList()), WAIT);

                InstanceSpec leader = ZooKeeperServers.leaderOf(cluster);
                assertThat(cluster.killServer(leader)).isTrue();

                Await.until(WAIT, () -> states.stream().allMatch(seen -> seen.contains(ConnectionState.SUSPENDED)
                        && seen.contains(ConnectionState.RECONNECTED)), () -> "every client suspended and reconnected: "
                        + states);
                assertThat(states).allSatisfy(seen -> assertThat(seen).doesNotContain(ConnectionState.LOST));
                assertThat(participants).allSatisfy(p -> assertThat(p.leaves()).isEmpty());
                assertThat(participants).allSatisfy(p -> assertThat(p.membership.view().orElseThrow().alive()).hasSize(3));
                assertThat(participants.get(0).session.client().getChildren().forPath(JobZnodes.root(job) + "/members"))
                        .containsExactlyInAnyOrder("n0", "n1", "n2");

                // Membership still works under the new leader: a member that closes is seen to leave.
                MembershipParticipant leaving = participants.remove(2);
                leaving.close();
                Await.until(WAIT, () -> participants.stream().allMatch(p -> p.sawLeave(leaving.member.id())),
                        () -> "both others saw n2 leave");
            } finally {
                participants.forEach(MembershipParticipant::close);
            }
        } finally {
            Await.result(vertx.close(), WAIT);
        }
    }
}
