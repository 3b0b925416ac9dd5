package dev.canopy.core.internal.membership;

import static dev.canopy.core.internal.membership.MembershipParticipant.WAIT;
import static dev.canopy.core.internal.membership.MembershipParticipant.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.internal.membership.testing.TestVertx;
import dev.canopy.core.internal.membership.testing.ZooKeeperServers;
import dev.canopy.core.node.JobId;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job with ZooKeeper credentials against a foreign process on the same ZooKeeper: it cannot read the
 * members, add or delete one, take the start record or squat on the job's name, and the job runs on.
 */
@Timeout(90)
class JobAclTest {

    private static final Duration SESSION = Duration.ofSeconds(4);
    private static final ZooKeeperCredentials JOB_CREDENTIALS = credentials("job-secured", "secret of the secured job");
    private static final ZooKeeperCredentials OTHER_CREDENTIALS = credentials("job-secured", "secret of another job!");

    private TestingServer zooKeeper;
    private final Vertx vertx = TestVertx.create();
    private final List<MembershipParticipant> participants = new ArrayList<>();
    private final List<CuratorFramework> foreigners = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        participants.forEach(MembershipParticipant::close);
        foreigners.forEach(CuratorFramework::close);
        Await.result(vertx.close(), WAIT);
        zooKeeper.close();
    }

    private static ZooKeeperCredentials credentials(String user, String password) {
        return new ZooKeeperCredentials(user, password.getBytes(StandardCharsets.UTF_8));
    }

    private MembershipParticipant participant(JobId job, int index, int expectedSize,
            Optional<ZooKeeperCredentials> credentials) {
        MembershipParticipant participant = new MembershipParticipant(vertx, zooKeeper.getConnectString(), SESSION, job,
                member("n" + index, "wan", "site", "h" + index, 8000 + 10 * index), expectedSize, WAIT, credentials);
        participants.add(participant);
        return participant;
    }

    private CuratorFramework foreigner(Optional<ZooKeeperCredentials> credentials) {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(zooKeeper.getConnectString()).retryPolicy(new RetryOneTime(100))
                .connectionTimeoutMs(5000).sessionTimeoutMs(5000);
        credentials.ifPresent(c -> builder.authorization("digest", c.digestAuthentication()));
        CuratorFramework client = builder.build();
        client.start();
        foreigners.add(client);
        return client;
    }

    @Test
    void aForeignClientCannotReadAddDeleteOrTakeTheStartRecordAndTheJobRunsOn() throws Exception {
        zooKeeper = ZooKeeperServers.server();
        JobId job = JobId.of("secured");
        String root = JobZnodes.root(job);
        MembershipParticipant first = participant(job, 0, 2, Optional.of(JOB_CREDENTIALS));
        Future<MembershipView> firstView = first.start();
        Await.until(WAIT, () -> first.events.size() == 1, () -> "n0 registered: " + first.events);

        for (CuratorFramework attacker : List.of(foreigner(Optional.empty()), foreigner(Optional.of(OTHER_CREDENTIALS)))) {
            assertThatThrownBy(() -> attacker.create().forPath(root + "/start", "{\"members\":[]}".getBytes()))
                    .as("take the start record").isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> attacker.getData().forPath(root + "/members/n0"))
                    .as("read a member").isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> attacker.getChildren().forPath(root + "/members"))
                    .as("list the members").isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> attacker.create().forPath(root + "/members/n9", "{}".getBytes()))
                    .as("add a member").isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> attacker.delete().forPath(root + "/members/n0"))
                    .as("delete a member").isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> attacker.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(root))
                    .as("open the job up").isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> attacker.setACL().withACL(ZooDefs.Ids.READ_ACL_UNSAFE).forPath(JobZnodes.JOBS))
                    .as("lock every job out").isInstanceOf(KeeperException.NoAuthException.class);
        }

        MembershipParticipant second = participant(job, 1, 2, Optional.of(JOB_CREDENTIALS));
        MembershipView view = Await.result(second.start(), WAIT);
        assertThat(Await.result(firstView, WAIT)).isEqualTo(view);
        assertThat(view.size()).isEqualTo(2);

        CuratorFramework attacker = foreigners.get(0);
        assertThatThrownBy(() -> attacker.delete().forPath(root + "/members/n1"))
                .isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> attacker.setData().forPath(root + "/start", "{}".getBytes()))
                .isInstanceOf(KeeperException.NoAuthException.class);
        assertThat(participants).allSatisfy(p -> assertThat(p.leaves()).isEmpty());
        assertThat(first.session.client().getChildren().forPath(root + "/members")).containsExactlyInAnyOrder("n0", "n1");
    }

    @Test
    void aJobNameSomeoneElseCreatedIsRefusedNamingTheJob() throws Exception {
        zooKeeper = ZooKeeperServers.server();
        foreigner(Optional.empty()).create().creatingParentsIfNeeded().forPath(JobZnodes.root(JobId.of("squatted")));
        foreigner(Optional.of(OTHER_CREDENTIALS)).create().creatingParentsIfNeeded()
                .withACL(ZooDefs.Ids.CREATOR_ALL_ACL).forPath(JobZnodes.root(JobId.of("stolen")));

        Throwable squatted = Await.failure(participant(JobId.of("squatted"), 0, 1, Optional.of(JOB_CREDENTIALS)).start(), WAIT);
        Throwable stolen = Await.failure(participant(JobId.of("stolen"), 0, 1, Optional.of(JOB_CREDENTIALS)).start(), WAIT);

        assertThat(squatted).hasMessageContaining("of job squatted exists with an ACL this job did not set")
                .hasMessageContaining("taken by someone else");
        assertThat(stolen).hasMessageContaining("job stolen belongs to other credentials");
    }

    @Test
    void aNodeWithoutTheCredentialsCannotJoinASecuredJob() throws Exception {
        zooKeeper = ZooKeeperServers.server();
        JobId job = JobId.of("closed");
        participant(job, 0, 2, Optional.of(JOB_CREDENTIALS)).start();
        Await.until(WAIT, () -> participants.get(0).events.size() == 1, () -> "n0 registered");

        Throwable refused = Await.failure(participant(job, 1, 2, Optional.empty()).start(), WAIT);

        assertThat(refused).hasMessageContaining("job closed belongs to other credentials");
    }

    @Test
    void aServerThatEnforcesAuthenticationRunsTheJobAndRefusesAnonymousClients() throws Exception {
        System.setProperty("zookeeper.enforce.auth.enabled", "true");
        System.setProperty("zookeeper.enforce.auth.schemes", "digest");
        try {
            zooKeeper = ZooKeeperServers.server();
        } finally {
            System.clearProperty("zookeeper.enforce.auth.enabled");
            System.clearProperty("zookeeper.enforce.auth.schemes");
        }
        JobId job = JobId.of("enforced");
        List<Future<MembershipView>> views = List.of(participant(job, 0, 2, Optional.of(JOB_CREDENTIALS)).start(),
                participant(job, 1, 2, Optional.of(JOB_CREDENTIALS)).start());
        assertThat(Await.result(views.get(0), WAIT).size()).isEqualTo(2);

        CuratorFramework anonymous = foreigner(Optional.empty());
        assertThatThrownBy(() -> anonymous.checkExists().forPath(JobZnodes.root(job)))
                .isInstanceOf(KeeperException.class);
        assertThat(participants).allSatisfy(p -> assertThat(p.leaves()).isEmpty());
    }
}
