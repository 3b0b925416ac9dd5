package dev.canopy.core.internal.membership;

import static dev.canopy.core.internal.membership.MembershipParticipant.WAIT;
import static dev.canopy.core.internal.membership.MembershipParticipant.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.internal.membership.testing.TestVertx;
import dev.canopy.core.internal.membership.testing.ZooKeeperServers;
import dev.canopy.core.node.JobId;
import dev.canopy.core.testing.Await;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A session opened without credentials (a spawn's warm JVM, before it is handed a job): it can neither read, add to
 * nor delete from a secured job, and creates nothing; once given the job's credentials it acts as a session opened
 * with them, and the znodes it creates belong to them. It takes credentials once, and only if opened without.
 */
@Timeout(90)
class ZooKeeperSessionLateCredentialsTest {

    private static final Duration SESSION = Duration.ofSeconds(4);
    private static final ZooKeeperCredentials JOB = new ZooKeeperCredentials("job-late",
            "secret of the job".getBytes(StandardCharsets.UTF_8));

    private TestingServer zooKeeper;
    private final Vertx vertx = TestVertx.create();
    private MembershipParticipant member;
    private ZooKeeperSession ahead;

    @BeforeEach
    void start() throws Exception {
        zooKeeper = ZooKeeperServers.server();
    }

    @AfterEach
    void stop() throws Exception {
        if (ahead != null) {
            Await.result(ahead.close(), WAIT);
        }
        if (member != null) {
            member.close();
        }
        Await.result(vertx.close(), WAIT);
        zooKeeper.close();
    }

    @Test
    void beforeItsCredentialsTheSessionCanTouchNoJobAfterwardsItIsTheJobs() throws Exception {
        JobId job = JobId.of("late");
        String root = JobZnodes.root(job);
        member = new MembershipParticipant(vertx, zooKeeper.getConnectString(), SESSION, job,
                member("n0", "wan", "site", "h0", 8000), 2, WAIT, Optional.of(JOB));
        member.start();
        Await.until(WAIT, () -> member.events.size() == 1, () -> "n0 registered: " + member.events);

        ahead = Await.result(ZooKeeperSession.openWithoutCredentials(vertx, zooKeeper.getConnectString(), SESSION,
                Duration.ofSeconds(10), Optional.empty()), WAIT);
        CuratorFramework anonymous = ahead.client();
        assertThat(ahead.credentials()).isEmpty();
        assertThatThrownBy(() -> anonymous.getData().forPath(root + "/members/n0"))
                .as("read a member").isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> anonymous.getChildren().forPath(root + "/members"))
                .as("list the members").isInstanceOf(KeeperException.NoAuthException.class);
        // Refused either way: the znode would carry the creator's credentials, and the session has none.
        assertThatThrownBy(() -> anonymous.create().forPath(root + "/members/n9", "{}".getBytes()))
                .as("add a member").isInstanceOfAny(KeeperException.NoAuthException.class,
                        KeeperException.InvalidACLException.class);
        assertThatThrownBy(() -> anonymous.delete().forPath(root + "/members/n0"))
                .as("delete a member").isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> anonymous.create().forPath("/anywhere", "{}".getBytes()))
                .as("create a znode of its own: it has no credentials to give it").isInstanceOf(KeeperException.InvalidACLException.class);

        ZooKeeperSession authenticated = ahead.authenticate(JOB);
        ahead = authenticated;
        assertThat(authenticated.credentials()).contains(JOB);
        CuratorFramework client = authenticated.client();
        assertThat(client.getChildren().forPath(root + "/members")).containsExactly("n0");
        client.create().forPath(root + "/extra", "{}".getBytes());
        List<ACL> acl = client.getACL().forPath(root + "/extra");
        assertThat(acl).singleElement().satisfies(entry -> {
            assertThat(entry.getId().getScheme()).isEqualTo("digest");
            assertThat(entry.getId().getId()).startsWith(JOB.user() + ":");
        });
        assertThatThrownBy(() -> authenticated.authenticate(JOB)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("opened with its credentials");
        assertThat(member.leaves()).isEmpty();
    }

    @Test
    void aSessionOpenedWithCredentialsTakesNoOthers() {
        ahead = Await.result(ZooKeeperSession.open(vertx, zooKeeper.getConnectString(), SESSION, Duration.ofSeconds(10),
                Optional.of(JOB)), WAIT);
        assertThatThrownBy(() -> ahead.authenticate(JOB)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("takes no others");
    }
}
