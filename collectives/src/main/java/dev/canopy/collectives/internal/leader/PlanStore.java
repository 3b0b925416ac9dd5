package dev.canopy.collectives.internal.leader;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeSeal;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletionException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.x.async.AsyncCuratorFramework;
import org.apache.curator.x.async.api.CreateOption;
import org.apache.zookeeper.KeeperException;

/**
 * Published plans of one job in ZooKeeper, under {@code /canopy/jobs/<job>/plans}:
 * <ul>
 *   <li>{@code epoch-0000000042}: the plan of epoch 42 ({@link PlanCodec} JSON), written once, never changed,
 *       sealed ({@link ZnodeSeal}: HMAC-SHA-256 over the znode's path and the JSON under a key derived from the job
 *       secret), so {@link #read} accepts only what this job's leaders wrote there ({@link UntrustedPlanException});</li>
 *   <li>{@code current}: the highest published epoch as decimal text ({@code 0} before the first plan);</li>
 *   <li>{@code leader}: the plan leaders' latch.</li>
 * </ul>
 * A publication is one ZooKeeper transaction: check that the publisher's latch znode still exists (a
 * leader whose session expired cannot publish), create the epoch's znode and move {@code current}
 * only if its data version is the epoch before ({@code current} is written by publications alone,
 * so its version is the current epoch): epochs go up by one and are never written twice, even after
 * old epoch znodes are pruned. Only the last {@value #RETAINED_EPOCHS} epochs are kept
 * ({@link #pruneBefore}). Every call is asynchronous through Curator's async API; futures complete
 * on the given context.
 */
public final class PlanStore {

    /** How a publication ended; both failures are expected in a leader change and are values. */
    public enum PublishOutcome {
        PUBLISHED,
        /** Another leader already published this epoch: read {@link #currentEpoch()} and continue from it. */
        EPOCH_TAKEN,
        /** The publisher's latch znode is gone: it is no longer leader and must stop publishing. */
        NOT_LEADER
    }

    /** Epoch znodes kept after a publication: a member that lags this many plans behind is long gone. */
    public static final int RETAINED_EPOCHS = 16;

    static final String PLANS = "/plans";
    private static final String EPOCH_PREFIX = "epoch-";
    static final String CURRENT = PLANS + "/current";
    static final String LEADER_LATCH = PLANS + "/leader";
    /** The key derivation label of plan seals: a timings or calibration MAC never fits a plan. */
    static final String MAC_LABEL = "canopy/collectives/plans/v1";
    /** ZooKeeper's own limit on a znode (jute.maxbuffer's default). */
    static final int MAX_BODY_CHARS = 1 << 20;

    private final Context context;
    private final AsyncCuratorFramework zooKeeper;
    private final String jobPath;
    private final ZnodeSeal seal;

    /**
     * @param client a started Curator client (any namespace; this class uses {@code canopy/jobs/<job>})
     * @param secret the job's secret, which seals the plans this store publishes and must have sealed those it reads
     */
    public PlanStore(Context context, CuratorFramework client, JobId job, JobSecret secret) {
        this.context = context;
        this.seal = new ZnodeSeal(secret, MAC_LABEL, MAX_BODY_CHARS);
        this.zooKeeper = AsyncCuratorFramework.wrap(namespaced(client, job));
        this.jobPath = "/canopy/jobs/" + job.name();
    }

    /** The client the job's plan znodes are addressed with (paths like {@link #CURRENT}). */
    static CuratorFramework namespaced(CuratorFramework client, JobId job) {
        return client.usingNamespace("canopy/jobs/" + job.name());
    }

    static String epochPath(long epoch) {
        return String.format("%s/%s%010d", PLANS, EPOCH_PREFIX, epoch);
    }

    /** Creates {@code plans/current} with epoch 0 unless it exists. */
    public Future<Void> ensureCreated() {
        return Future.fromCompletionStage(zooKeeper.create().withOptions(EnumSet.of(CreateOption.createParentsIfNeeded))
                        .forPath(CURRENT, encodeEpoch(0)), context)
                .<Void>mapEmpty()
                .recover(e -> cause(e) instanceof KeeperException.NodeExistsException
                        ? Future.succeededFuture()
                        : Future.failedFuture(e));
    }

    /** The highest published epoch, 0 before the first plan (or before {@link #ensureCreated()}). */
    public Future<Long> currentEpoch() {
        return Future.fromCompletionStage(zooKeeper.getData().forPath(CURRENT), context)
                .map(bytes -> decodeEpoch(bytes, jobPath + CURRENT))
                .recover(e -> cause(e) instanceof KeeperException.NoNodeException
                        ? Future.succeededFuture(0L)
                        : Future.failedFuture(e));
    }

    /**
     * The plan of {@code epoch}; fails naming the znode when it was never published, and with an
     * {@link UntrustedPlanException} when this job's secret did not seal its content for its path.
     */
    public Future<PublishedPlan> read(long epoch) {
        String path = epochPath(epoch);
        return Future.fromCompletionStage(zooKeeper.getData().forPath(path), context)
                .map(bytes -> checkEpoch(PlanCodec.decode(open(jobPath + path, bytes), jobPath + path), epoch,
                        jobPath + path))
                .recover(e -> Future.failedFuture(cause(e) instanceof KeeperException.NoNodeException
                        ? new IllegalStateException("no plan of epoch " + epoch + " at " + jobPath + path
                                + ": a collective carries an epoch no plan leader of this job published", e)
                        : e));
    }

    /**
     * Publishes {@code plan} under its epoch and makes it current, if {@code fencePath} (the publisher's
     * latch znode, relative to the job) still exists and nobody published that epoch yet.
     */
    public Future<PublishOutcome> publish(PublishedPlan plan, String fencePath) {
        String path = epochPath(plan.epoch());
        return Future.fromCompletionStage(zooKeeper.transaction().forOperations(List.of(
                        zooKeeper.transactionOp().check().forPath(fencePath),
                        zooKeeper.transactionOp().create().forPath(path, sealed(jobPath + path, plan)),
                        zooKeeper.transactionOp().setData().withVersion(Math.toIntExact(plan.epoch() - 1))
                                .forPath(CURRENT, encodeEpoch(plan.epoch())))), context)
                .map(results -> PublishOutcome.PUBLISHED)
                .recover(e -> {
                    Throwable cause = cause(e);
                    if (cause instanceof KeeperException.NodeExistsException
                            || cause instanceof KeeperException.BadVersionException) {
                        return Future.succeededFuture(PublishOutcome.EPOCH_TAKEN);
                    }
                    if (cause instanceof KeeperException.NoNodeException) {
                        return Future.succeededFuture(PublishOutcome.NOT_LEADER);
                    }
                    return Future.failedFuture(new IllegalStateException("publishing plan epoch " + plan.epoch()
                            + " at " + jobPath + path + " failed: " + cause, cause));
                });
    }

    /**
     * Deletes the znodes of epochs below {@code epoch} (best effort: one already gone is skipped);
     * completes with how many it deleted.
     */
    public Future<Integer> pruneBefore(long epoch) {
        return Future.fromCompletionStage(zooKeeper.getChildren().forPath(PLANS), context).compose(children -> {
            List<Future<Void>> deletions = new ArrayList<>();
            for (String child : children) {
                OptionalLong old = epochOf(child);
                if (old.isPresent() && old.getAsLong() < epoch) {
                    deletions.add(Future.fromCompletionStage(zooKeeper.delete().forPath(epochPath(old.getAsLong())), context)
                            .<Void>mapEmpty()
                            .recover(e -> cause(e) instanceof KeeperException.NoNodeException
                                    ? Future.succeededFuture()
                                    : Future.failedFuture(e)));
                }
            }
            return Future.all(deletions).map(all -> deletions.size());
        });
    }

    private static OptionalLong epochOf(String child) {
        if (!child.startsWith(EPOCH_PREFIX)) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(child.substring(EPOCH_PREFIX.length())));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** {@code plan}'s JSON sealed for the znode at {@code fullPath}. */
    byte[] sealed(String fullPath, PublishedPlan plan) {
        return seal.seal(fullPath, new String(PlanCodec.encode(plan), StandardCharsets.UTF_8));
    }

    /** The JSON of sealed content, when this job's secret sealed it for {@code fullPath}. */
    private byte[] open(String fullPath, byte[] stored) {
        try {
            return seal.open(fullPath, stored)
                    .orElseThrow(() -> new UntrustedPlanException(fullPath, "its MAC is wrong for this path under this"
                            + " job's secret"))
                    .getBytes(StandardCharsets.UTF_8);
        } catch (MalformedZnodeException e) {
            throw new UntrustedPlanException(fullPath, "it is not a sealed plan (" + e.getMessage() + ")");
        }
    }

    /** A plan read from the znode of {@code epoch} must be that epoch's. */
    private static PublishedPlan checkEpoch(PublishedPlan plan, long epoch, String path) {
        if (plan.epoch() != epoch) {
            throw new MalformedZnodeException(path, "holds the plan of epoch " + plan.epoch() + ", not of " + epoch);
        }
        return plan;
    }

    static byte[] encodeEpoch(long epoch) {
        return Long.toString(epoch).getBytes(StandardCharsets.US_ASCII);
    }

    /** The plan pointer: a decimal epoch >= 0, else a {@link MalformedZnodeException} quoting at most 64 characters. */
    static long decodeEpoch(byte[] bytes, String path) {
        String text = bytes == null ? "" : new String(bytes, StandardCharsets.US_ASCII);
        try {
            long epoch = Long.parseLong(text);
            if (epoch < 0) {
                throw new NumberFormatException("negative");
            }
            return epoch;
        } catch (NumberFormatException e) {
            throw new MalformedZnodeException(path, "holds '" + MalformedZnodeException.quote(text)
                    + "', not a plan epoch (a decimal >= 0); delete the job's plans and restart");
        }
    }

    private static Throwable cause(Throwable e) {
        return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    }
}
