package dev.canopy.core.node;

import static dev.canopy.core.node.LocalJob.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.comm.Message;
import dev.canopy.core.internal.membership.JobZnodes;
import dev.canopy.core.internal.membership.MembershipEvent;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Someone with rights over the job's znodes (here a client with the job's credentials, as a ZooKeeper
 * administrator would be) deletes the member znode of a live member: the others see the znode go, but the
 * member still answers over the authenticated transport, so it stays a member; it re-creates its znode, and
 * messages keep flowing both ways, also a receive that was waiting when the znode went.
 */
@Timeout(90)
class MemberZnodeDeletedTest {

    /** FailureMonitor's confirmation window (4 heartbeat periods) and a margin for a loaded machine. */
    private static final Duration CONFIRMATION = HeartbeatSettings.DEFAULT_PERIOD.multipliedBy(4).plusSeconds(1);

    @Test
    void aLiveMembersZnodeDeletedByAnAdministratorDoesNotCostTheJobThatMember() throws Exception {
        try (LocalJob job = LocalJob.start("znode-deleted", LocalJob.spreadOver(3, 3));
                CuratorFramework administrator = ZooKeeperSession.builder(job.node(0).zooKeeperSession().connectString(),
                        Duration.ofSeconds(4), Duration.ofSeconds(10), Optional.of(ZooKeeperCredentials.of(job.secret())))
                        .retryPolicy(new RetryOneTime(100)).build()) {
            administrator.start();
            // When each of the others heard of the deletion: its confirmation window starts then, not at the delete.
            Queue<Long> suspectedAt = new ConcurrentLinkedQueue<>();
            for (int other : new int[] {0, 2}) {
                job.node(other).onMembershipEvent(event -> {
                    if (event.kind() == MembershipEvent.Kind.LEFT && event.member().id().equals(job.node(1).id())) {
                        suspectedAt.add(System.nanoTime());
                    }
                });
            }
            Future<Message> waitingForOne = job.world(0).receive(1, 3);
            String path = JobZnodes.root(job.node(1).job()) + "/members/" + job.node(1).id().value();
            long created = administrator.checkExists().forPath(path).getCzxid();

            administrator.delete().forPath(path);

            Await.until(WAIT, () -> suspectedAt.size() == 2, () -> "ranks 0 and 2 see rank 1's member znode go");
            Await.until(WAIT, () -> recreated(administrator, path, created), () -> "rank 1 re-creates its member znode");
            long lastSuspicion = suspectedAt.stream().mapToLong(Long::longValue).max().orElseThrow();
            Await.until(WAIT, () -> System.nanoTime() - lastSuspicion > CONFIRMATION.toNanos(),
                    () -> "the others' confirmation windows have passed");

            Await.result(job.world(1).send(0, 3, Buffer.buffer("still here")), WAIT);
            assertThat(Await.result(waitingForOne, WAIT).payload().toString()).isEqualTo("still here");
            Await.result(job.world(2).send(1, 4, Buffer.buffer("to rank 1")), WAIT);
            assertThat(Await.result(job.world(1).receive(2, 4), WAIT).payload().toString()).isEqualTo("to rank 1");
            assertThat(job.node(1).state()).isEqualTo(CanopyNode.State.JOINED);
        }
    }

    private static boolean recreated(CuratorFramework client, String path, long firstCreation) {
        try {
            Stat now = client.checkExists().forPath(path);
            return now != null && now.getCzxid() != firstCreation;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
