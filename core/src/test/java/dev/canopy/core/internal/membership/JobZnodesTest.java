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
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Nothing of a finished job stays in ZooKeeper: the last member out deletes it; a crashed job is swept. */
@Timeout(60)
class JobZnodesTest {

    private static final Duration SESSION = Duration.ofSeconds(2);

    private TestingServer zooKeeper;
    private Vertx vertx;
    private CuratorFramework observer;
    private final List<MembershipParticipant> participants = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        zooKeeper = ZooKeeperServers.server();
        vertx = TestVertx.create();
        observer = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), new RetryOneTime(100));
        observer.start();
    }

    @AfterEach
    void stop() throws Exception {
        participants.forEach(MembershipParticipant::close);
        observer.close();
        Await.result(vertx.close(), WAIT);
        zooKeeper.close();
    }

    private List<MembershipParticipant> startedJob(JobId job) {
        for (int i = 0; i < 3; i++) {
            participants.add(new MembershipParticipant(vertx, zooKeeper.getConnectString(), SESSION, job,
                    member("n" + i, "wan", "site", "h" + i, 7000 + 10 * i), 3, WAIT));
        }
        Await.result(Future.all(participants.stream().map(MembershipParticipant::start).toList()), WAIT);
        return List.copyOf(participants);
    }

    private boolean exists(String path) {
        try {
            return observer.checkExists().forPath(path) != null;
        } catch (Exception e) {
            throw new AssertionError("cannot look at " + path + ": " + e, e);
        }
    }

    @Test
    void membersLeavingTogetherDeleteTheWholeJobIncludingOtherModulesZnodes() throws Exception {
        JobId job = JobId.of("together");
        List<MembershipParticipant> three = startedJob(job);
        // A module above core (the plan leader) keeps its own znodes in the job's subtree.
        three.get(0).session.client().create().creatingParentsIfNeeded().forPath(JobZnodes.root(job) + "/plans/1");

        Await.result(Future.all(three.stream().map(p -> p.membership.close()).toList()), WAIT);

        Await.until(Duration.ofSeconds(5), () -> !exists(JobZnodes.root(job)), () -> "job znodes deleted");
        assertThat(exists(JobZnodes.JOBS)).as("the parent every job shares stays").isTrue();
    }

    @Test
    void theLastMemberOutDeletesTheJobAfterAnotherCrashed() throws Exception {
        JobId job = JobId.of("crash-then-leave");
        List<MembershipParticipant> three = startedJob(job);
        MembershipParticipant crashed = three.get(1);
        participants.remove(crashed);
        Await.result(crashed.session.close(), WAIT); // its process dies: the session ends, the membership never closes

        Await.until(WAIT, () -> three.get(0).sawLeave(crashed.member.id()), () -> "n0 saw " + three.get(0).events);
        assertThat(exists(JobZnodes.root(job))).as("the job runs on").isTrue();
        Await.result(three.get(0).membership.close(), WAIT);
        assertThat(exists(JobZnodes.root(job) + "/start")).as("one member is still in").isTrue();
        Await.result(three.get(2).membership.close(), WAIT);

        Await.until(Duration.ofSeconds(5), () -> !exists(JobZnodes.root(job)), () -> "job znodes deleted");
    }

    @Test
    void aJobWhoseMembersAllCrashedIsSweptByItsLauncher() throws Exception {
        JobId job = JobId.of("all-crashed");
        List<MembershipParticipant> three = startedJob(job);
        for (MembershipParticipant crashed : three) {
            participants.remove(crashed);
            Await.result(crashed.session.close(), WAIT);
        }
        assertThat(exists(JobZnodes.root(job) + "/start")).as("nobody was left to delete it").isTrue();

        assertThat(JobZnodes.sweep(observer, job)).isTrue();

        assertThat(exists(JobZnodes.root(job))).isFalse();
        assertThat(JobZnodes.sweep(observer, job)).as("nothing left the second time").isFalse();
    }
}
