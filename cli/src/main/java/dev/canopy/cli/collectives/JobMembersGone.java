package dev.canopy.cli.collectives;

import dev.canopy.core.internal.membership.JobMemberZnodes;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Blocks until a job has no registered member left: for process 0 of a {@code --zk embedded} job, which must
 * not stop the job's only ZooKeeper while other processes still use it. It watches the job's member znodes with
 * the job's credentials; a member that leaves deletes its znode, one that dies loses it with its session (4 s).
 * There is deliberately no bound: the job ends when its members end, and a launcher's time limit ends them all.
 */
final class JobMembersGone {

    private static final Logger LOG = LoggerFactory.getLogger(JobMembersGone.class);
    private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);
    /** How often to re-read even without a watch event (a lost event must not keep the server up forever). */
    private static final Duration RECHECK = Duration.ofSeconds(2);

    private JobMembersGone() {
    }

    /** Returns once {@code job} on the server at {@code connectString} has no members (or its znodes are gone). */
    static void await(String connectString, JobId job, JobSecret secret) throws Exception {
        try (CuratorFramework client = ZooKeeperSession.builder(connectString, SESSION_TIMEOUT, SESSION_TIMEOUT,
                Optional.of(ZooKeeperCredentials.of(secret))).build()) {
            client.start();
            if (!client.blockUntilConnected((int) SESSION_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                LOG.warn("cannot reach the embedded ZooKeeper at {} to see the job's members leave; stopping it", connectString);
                return;
            }
            String members = JobMemberZnodes.membersPath(job);
            int lastCount = -1;
            while (true) {
                CountDownLatch changed = new CountDownLatch(1);
                List<String> present;
                try {
                    present = client.getChildren().usingWatcher((CuratorWatcher) event -> changed.countDown()).forPath(members);
                } catch (KeeperException.NoNodeException jobGone) {
                    return;
                }
                if (present.isEmpty()) {
                    return;
                }
                if (present.size() != lastCount) {
                    LOG.info("keeping the embedded ZooKeeper up until the job's other {} member(s) leave: {}",
                            present.size(), present);
                    lastCount = present.size();
                }
                changed.await(RECHECK.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }
}
