package dev.canopy.core.internal.membership;

import dev.canopy.core.node.JobId;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.x.async.AsyncCuratorFramework;
import org.apache.curator.x.async.api.CreateOption;
import org.apache.curator.x.async.api.DeleteOption;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;

/**
 * A job's subtree in ZooKeeper, {@code /canopy/jobs/<job>}: claiming its root for this job's credentials,
 * and deleting the whole subtree when the job is over.
 *
 * <p>The root is a container znode, like every parent Curator creates; it holds the members' ephemeral
 * znodes and the persistent start record, plans and summaries of the modules above core. Nothing of it
 * outlives the job: the last member to leave deletes it ({@link JobMembership#close()}), and
 * {@code canopy launch} sweeps it after its processes have ended, however they ended ({@link #sweep}).
 */
public final class JobZnodes {

    static final String JOBS = "/canopy/jobs";
    private static final String CANOPY = "/canopy";
    /** Where grid-wide settings live ({@code canopy calibrate}); each grid's znodes below belong to their writer. */
    private static final String CONFIG = "/canopy/config";
    /** Where the launcher agents of each pool register and take spawn requests (module processes); each pool belongs to its secret. */
    public static final String AGENTS = "/canopy/agents";

    private final AsyncCuratorFramework zooKeeper;
    private final JobId job;
    private final Optional<ZooKeeperCredentials> credentials;

    JobZnodes(ZooKeeperSession session, JobId job) {
        this.zooKeeper = AsyncCuratorFramework.wrap(session.client());
        this.job = job;
        this.credentials = session.credentials();
    }

    /** {@code /canopy/jobs/<job>}. */
    public static String root(JobId job) {
        return JOBS + "/" + job.name();
    }

    /** Whether {@code path} is one of the parents every job (and agent pool) shares (they stay, with {@link JobAclProvider#SHARED_PARENT_ACL}). */
    static boolean isSharedParent(String path) {
        return CANOPY.equals(path) || JOBS.equals(path) || CONFIG.equals(path) || AGENTS.equals(path);
    }

    /**
     * Creates the job's root, or finds it, and checks that it belongs to this job: with credentials its ACL
     * must give access to exactly those credentials; without, it must be open. Fails naming the job when
     * the root was created by someone else (the job name is taken) or the credentials differ.
     */
    Future<Void> claim(Context context) {
        String root = root(job);
        return Future.fromCompletionStage(zooKeeper.create()
                        .withOptions(EnumSet.of(CreateOption.createParentsAsContainers), CreateMode.CONTAINER)
                        .forPath(root), context)
                .<Void>mapEmpty()
                .recover(e -> cause(e) instanceof KeeperException.NodeExistsException
                        ? Future.succeededFuture()
                        : Future.failedFuture(refusal(cause(e))))
                .compose(created -> Future.fromCompletionStage(zooKeeper.getACL().forPath(root), context)
                        .recover(e -> Future.failedFuture(refusal(cause(e)))))
                .compose(this::checkOwnership);
    }

    private Future<Void> checkOwnership(List<ACL> acl) {
        if (credentials.isPresent() && !JobAclProvider.belongsTo(acl, credentials.get())) {
            return Future.failedFuture(new IllegalStateException("the ZooKeeper znode " + root(job) + " of job " + job
                    + " exists with an ACL this job did not set (" + acl + "): the job name was taken by someone else;"
                    + " use a fresh job name, and find out who created it"));
        }
        if (credentials.isEmpty() && !JobAclProvider.isOpen(acl)) {
            return Future.failedFuture(notOurs());
        }
        return Future.succeededFuture();
    }

    /** Turns a refusal by ZooKeeper into the reason; other failures pass unchanged. */
    Throwable refusal(Throwable e) {
        return e instanceof KeeperException.NoAuthException ? notOurs() : e;
    }

    private IllegalStateException notOurs() {
        return new IllegalStateException("ZooKeeper refuses this node access to " + root(job) + ": job " + job
                + " belongs to other credentials (the job name was taken by someone else, or this node was not"
                + " given the job's secret)" + credentials.map(c -> "; this node is ZooKeeper user " + c.user()).orElse(""));
    }

    /** Deletes the job's whole subtree; succeeds when it is already gone. */
    Future<Void> delete(Context context) {
        return Future.fromCompletionStage(zooKeeper.delete()
                        .withOptions(EnumSet.of(DeleteOption.deletingChildrenIfNeeded, DeleteOption.quietly))
                        .forPath(root(job)), context);
    }

    /**
     * Deletes everything of {@code job} with a blocking client that has the job's credentials: for a launcher
     * whose processes have all ended. Returns whether there was anything to delete.
     */
    public static boolean sweep(CuratorFramework client, JobId job) throws Exception {
        String root = root(job);
        if (client.checkExists().forPath(root) == null) {
            return false;
        }
        try {
            client.delete().deletingChildrenIfNeeded().forPath(root);
        } catch (KeeperException.NoNodeException alreadyGone) {
            // Its last member deleted it at the same time.
        }
        return true;
    }

    static Throwable cause(Throwable e) {
        return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    }
}
