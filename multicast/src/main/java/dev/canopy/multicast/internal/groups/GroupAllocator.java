package dev.canopy.multicast.internal.groups;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.JobId;
import dev.canopy.gridconfig.model.MulticastRange;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.net.InetSocketAddress;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.x.async.AsyncCuratorFramework;
import org.apache.curator.x.async.api.CreateOption;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leases multicast addresses and ports for one job's groups from a {@link MulticastRange}, through
 * ZooKeeper, so that no two groups (of this job or of any other job using the same ZooKeeper) hold the same
 * address and port at once. A lease belongs to the ZooKeeper session of the process that created it: it ends
 * with {@link #release}, or when that session ends (a crashed job's groups come back after the session
 * timeout). Layout and ACLs: {@link LeaseZnodes}; docs/groups.md.
 *
 * <p>Every method is asynchronous and completes on {@code context}; nothing blocks. An exhausted range fails
 * with {@link RangeExhaustedException}; data read back from ZooKeeper that is not what this class writes
 * fails with {@link MalformedZnodeException}.
 */
public final class GroupAllocator {

    private static final Logger LOG = LoggerFactory.getLogger(GroupAllocator.class);

    /** More tries than any range sees without a bug or a hostile neighbour; then give up naming why. */
    static final int MAX_ATTEMPTS = 10_000;
    private static final int MAX_PARENT_RETRIES = 3;
    private static final byte[] NO_DATA = new byte[0];

    private final ZooKeeperSession session;
    private final AsyncCuratorFramework zooKeeper;
    private final JobId job;
    private final MulticastRange range;
    private final Context context;
    private final SlotSweeper sweeper;
    private final long seed;
    private final AtomicLong allocations = new AtomicLong();
    private volatile Future<Void> parents;

    /**
     * @param session the ZooKeeper session that holds this process's leases (with the job's credentials, the
     *                leases and the job's group records are the job's alone)
     * @param seed    of the random slot choice (logged, so a run can be replayed)
     */
    public GroupAllocator(ZooKeeperSession session, JobId job, MulticastRange range, Context context, long seed) {
        this.session = session;
        this.zooKeeper = AsyncCuratorFramework.wrap(session.client());
        this.job = job;
        this.range = range;
        this.context = context;
        this.sweeper = new SlotSweeper(zooKeeper, context);
        this.seed = seed;
        LOG.info("multicast groups of job {}: leasing from range {} ({} groups), seed {}", job, range, range.capacity(), seed);
    }

    public MulticastRange range() {
        return range;
    }

    public JobId job() {
        return job;
    }

    /**
     * The group {@code key} of this job: found if a member already opened it, else leased now, with this
     * process as its owner. Every member that opens one key gets the same address.
     */
    public Future<GroupLease> open(GroupKey key) {
        return parents().compose(ready -> find(key)).compose(found -> found.map(Future::succeededFuture)
                .orElseGet(() -> claim(key, Claim.OPEN, new Attempt(candidates()))));
    }

    /** Leases a new group {@code key} owned by this process; fails if the job has such a group already. */
    public Future<GroupLease> create(GroupKey key) {
        return parents().compose(ready -> claim(key, Claim.CREATE, new Attempt(candidates())));
    }

    /**
     * The group {@code key} another member created; fails if there is none. The read follows a {@code sync}: this
     * process's ZooKeeper server may be a follower that has not applied the creator's write yet (the creator told
     * the members about the group over the network, which can be faster than the ensemble), and a sync makes the
     * server catch up with the leader first.
     */
    public Future<GroupLease> lookup(GroupKey key) {
        return sync(LeaseZnodes.groups(job)).compose(synced -> find(key)).compose(found -> found.map(Future::succeededFuture).orElseGet(() -> Future.failedFuture(
                new IllegalStateException("job " + job + " has no multicast group " + key + " (not created yet, released,"
                        + " or its owner's ZooKeeper session ended)"))));
    }

    /**
     * Ends {@code lease} if this process owns it: the address goes back to the range. A member's lease is the
     * owner's to end, so this does nothing for it. Succeeds also when the session already ended the lease.
     */
    public Future<Void> release(GroupLease lease) {
        if (lease.role() != LeaseRole.OWNER) {
            return Future.succeededFuture();
        }
        Slot slot = slotOf(lease.address());
        List<CuratorOp> deletions = List.of(
                zooKeeper.transactionOp().delete().forPath(LeaseZnodes.group(job, lease.key())),
                zooKeeper.transactionOp().delete().forPath(LeaseZnodes.lease(slot)),
                zooKeeper.transactionOp().delete().forPath(LeaseZnodes.slot(slot)));
        return Future.fromCompletionStage(zooKeeper.transaction().forOperations(deletions), context)
                .<Void>mapEmpty()
                .recover(e -> {
                    if (SlotSweeper.cause(e) instanceof KeeperException.NoNodeException) {
                        LOG.info("multicast {} of job {} was already gone (its ZooKeeper session ended)", lease, job);
                        return Future.succeededFuture();
                    }
                    return Future.failedFuture(SlotSweeper.cause(e));
                });
    }

    /** Deletes every slot of any job that no lease holds any more (left by ended sessions); returns how many. */
    public Future<Integer> sweep() {
        return sweeper.sweep();
    }

    private enum Claim { OPEN, CREATE }

    /** The state of one allocation: its candidates, how many slots it tried, whether it swept. */
    private static final class Attempt {
        final SlotCandidates candidates;
        int tries;
        int parentRetries;
        boolean swept;

        Attempt(SlotCandidates candidates) {
            this.candidates = candidates;
        }
    }

    private SlotCandidates candidates() {
        return new SlotCandidates(range, new SplittableRandom(seed + 0x9E37_79B9_7F4A_7C15L * allocations.incrementAndGet()));
    }

    private Future<GroupLease> claim(GroupKey key, Claim claim, Attempt attempt) {
        if (attempt.tries++ >= MAX_ATTEMPTS) {
            return Future.failedFuture(new IllegalStateException("gave up leasing a multicast group for " + key + " of job "
                    + job + " after " + MAX_ATTEMPTS + " slots of range " + range + " were taken under it"));
        }
        if (attempt.candidates.needsListing()) {
            return takenSlots().compose(taken -> {
                attempt.candidates.listed(taken);
                return claim(key, claim, attempt);
            });
        }
        OptionalLong next = attempt.candidates.next();
        if (next.isEmpty()) {
            if (attempt.swept) {
                return Future.failedFuture(new RangeExhaustedException(range, job.name(), key));
            }
            attempt.swept = true;
            return sweeper.sweep().compose(swept -> {
                attempt.candidates.relist();
                return takenSlots();
            }).compose(taken -> {
                attempt.candidates.listed(taken);
                return claim(key, claim, attempt);
            });
        }
        return trySlot(key, claim, attempt, next.getAsLong(), true);
    }

    private Future<GroupLease> trySlot(GroupKey key, Claim claim, Attempt attempt, long index, boolean mayReclaim) {
        Slot slot = Slot.of(range, index);
        return leaseTransaction(key, slot).recover(e -> {
            Throwable cause = SlotSweeper.cause(e);
            if (cause instanceof KeeperException.NodeExistsException) {
                return conflict(key, claim, attempt, index, mayReclaim);
            }
            if (cause instanceof KeeperException.NoNodeException && attempt.parentRetries++ < MAX_PARENT_RETRIES) {
                // ZooKeeper deleted an empty container parent between our check and the transaction.
                parents = null;
                return parents().compose(ready -> trySlot(key, claim, attempt, index, mayReclaim));
            }
            if (cause instanceof KeeperException.NoAuthException) {
                return Future.failedFuture(new IllegalStateException("ZooKeeper refuses job " + job + " to lease slot "
                        + slot + " (" + LeaseZnodes.slot(slot) + ") or to write " + LeaseZnodes.groups(job)
                        + ": check the ACLs of " + LeaseZnodes.SLOTS + " and of the job's subtree (docs/groups.md)", cause));
            }
            return Future.failedFuture(cause);
        });
    }

    /** The transaction failed on an existing znode: the group itself (another member won), or the slot. */
    private Future<GroupLease> conflict(GroupKey key, Claim claim, Attempt attempt, long index, boolean mayReclaim) {
        return Future.fromCompletionStage(zooKeeper.checkExists().forPath(LeaseZnodes.group(job, key)), context)
                .compose(record -> {
                    if (record != null) {
                        return claim == Claim.OPEN
                                ? find(key).compose(found -> found.map(Future::succeededFuture)
                                        .orElseGet(() -> claim(key, claim, attempt)))
                                : Future.failedFuture(new IllegalStateException("job " + job + " has a multicast group "
                                        + key + " already; a new group needs a new key"));
                    }
                    if (!mayReclaim) {
                        attempt.candidates.taken(index);
                        return claim(key, claim, attempt);
                    }
                    return sweeper.reclaim(Slot.of(range, index)).compose(free -> {
                        if (free) {
                            return trySlot(key, claim, attempt, index, false);
                        }
                        attempt.candidates.taken(index);
                        return claim(key, claim, attempt);
                    });
                });
    }

    /** Slot, lease and the job's record of the group, all or nothing. */
    private Future<GroupLease> leaseTransaction(GroupKey key, Slot slot) {
        List<CuratorOp> creations = List.of(
                zooKeeper.transactionOp().create().withOptions(CreateMode.CONTAINER,
                        LeaseZnodes.slotAcl(session.credentials().isPresent()), false).forPath(LeaseZnodes.slot(slot), NO_DATA),
                zooKeeper.transactionOp().create().withMode(CreateMode.EPHEMERAL)
                        .forPath(LeaseZnodes.lease(slot), LeaseCodec.lease(job, key)),
                zooKeeper.transactionOp().create().withMode(CreateMode.EPHEMERAL)
                        .forPath(LeaseZnodes.group(job, key), LeaseCodec.record(slot)));
        return Future.fromCompletionStage(zooKeeper.transaction().forOperations(creations), context)
                .map(done -> {
                    GroupLease lease = new GroupLease(key, slot.socketAddress(), LeaseRole.OWNER);
                    LOG.debug("job {} leased {}", job, lease);
                    return lease;
                });
    }

    private Future<Void> sync(String path) {
        return Future.fromCompletionStage(zooKeeper.sync().forPath(path), context).mapEmpty();
    }

    /** This job's group {@code key}, checked against its slot's lease; empty when there is no such group. */
    private Future<Optional<GroupLease>> find(GroupKey key) {
        String where = LeaseZnodes.group(job, key);
        Stat stat = new Stat();
        return Future.fromCompletionStage(zooKeeper.getData().storingStatIn(stat).forPath(where), context)
                .compose(data -> {
                    Slot slot = LeaseCodec.readRecord(where, data, stat, range);
                    LeaseRole role = stat.getEphemeralOwner() == sessionId() ? LeaseRole.OWNER : LeaseRole.MEMBER;
                    GroupLease lease = new GroupLease(key, slot.socketAddress(), role);
                    return checkLease(slot, key, stat.getCzxid())
                            .map(held -> held ? Optional.of(lease) : Optional.<GroupLease>empty());
                }, e -> SlotSweeper.cause(e) instanceof KeeperException.NoNodeException
                        ? Future.succeededFuture(Optional.empty()) : Future.failedFuture(SlotSweeper.cause(e)));
    }

    /**
     * Whether the slot's lease holds group {@code key} (the record created at {@code recordCzxid}); false when the
     * group was released since its record was read, failed when the record names a lease that is not its own.
     */
    private Future<Boolean> checkLease(Slot slot, GroupKey key, long recordCzxid) {
        String where = LeaseZnodes.lease(slot);
        return Future.fromCompletionStage(zooKeeper.getData().forPath(where), context)
                .compose(data -> {
                    LeaseCodec.checkLease(where, data, job, key);
                    return Future.succeededFuture(true);
                }, e -> {
                    Throwable cause = SlotSweeper.cause(e);
                    if (cause instanceof KeeperException.NoNodeException) {
                        // The owner's release deletes record, lease and slot in one transaction: a record read just
                        // before it names a lease that is gone by now. Only a record still there names no lease.
                        return recordStillThere(key, recordCzxid).compose(there -> there
                                ? Future.failedFuture(new MalformedZnodeException(LeaseZnodes.group(job, key),
                                        "names slot " + slot + ", which no lease holds"))
                                : Future.succeededFuture(false));
                    }
                    if (cause instanceof KeeperException.NoAuthException) {
                        return Future.failedFuture(new MalformedZnodeException(LeaseZnodes.group(job, key),
                                "names slot " + slot + ", which another job holds"));
                    }
                    return Future.failedFuture(cause);
                });
    }

    /** Whether the record of group {@code key} created at {@code czxid} still exists (not released, not re-created). */
    private Future<Boolean> recordStillThere(GroupKey key, long czxid) {
        return Future.fromCompletionStage(zooKeeper.checkExists().forPath(LeaseZnodes.group(job, key)), context)
                .map(stat -> stat != null && stat.getCzxid() == czxid);
    }

    /** The indexes of the slots of this range that exist in ZooKeeper; names that are not slots are skipped. */
    private Future<List<Long>> takenSlots() {
        return Future.fromCompletionStage(zooKeeper.getChildren().forPath(LeaseZnodes.SLOTS), context)
                // Gone (someone deleted the empty parent): nothing is taken; the next transaction re-creates it.
                .recover(e -> SlotSweeper.cause(e) instanceof KeeperException.NoNodeException
                        ? Future.succeededFuture(List.of()) : Future.failedFuture(SlotSweeper.cause(e)))
                .map(names -> names.stream().flatMap(name -> Slot.parse(name).stream())
                        .map(slot -> range.indexOf(slot.address(), slot.port())).filter(index -> index >= 0).toList());
    }

    /** The shared parents (created with their shared ACL, never through Curator's parent creation) and the job's container. */
    private Future<Void> parents() {
        Future<Void> ensured = parents;
        if (ensured != null && !ensured.failed()) {
            return ensured;
        }
        ensured = shared(LeaseZnodes.CANOPY)
                .compose(done -> shared(LeaseZnodes.MULTICAST))
                .compose(done -> shared(LeaseZnodes.SLOTS))
                .compose(done -> Future.fromCompletionStage(zooKeeper.create()
                        .withOptions(EnumSet.of(CreateOption.createParentsAsContainers), CreateMode.CONTAINER)
                        .forPath(LeaseZnodes.groups(job), NO_DATA), context).<Void>mapEmpty())
                .recover(e -> SlotSweeper.cause(e) instanceof KeeperException.NodeExistsException
                        ? Future.succeededFuture() : Future.failedFuture(SlotSweeper.cause(e)));
        parents = ensured;
        return ensured;
    }

    private Future<Void> shared(String path) {
        return Future.fromCompletionStage(zooKeeper.create()
                        .withOptions(EnumSet.noneOf(CreateOption.class), CreateMode.PERSISTENT, LeaseZnodes.SHARED_PARENT_ACL)
                        .forPath(path, NO_DATA), context)
                .<Void>mapEmpty()
                .recover(e -> SlotSweeper.cause(e) instanceof KeeperException.NodeExistsException
                        ? Future.succeededFuture() : Future.failedFuture(SlotSweeper.cause(e)));
    }

    private long sessionId() {
        try {
            return session.client().getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            throw new IllegalStateException("no ZooKeeper session for job " + job + ": " + e.getMessage(), e);
        }
    }

    private Slot slotOf(InetSocketAddress address) {
        byte[] bytes = address.getAddress().getAddress();
        int ip = (bytes[0] & 0xFF) << 24 | (bytes[1] & 0xFF) << 16 | (bytes[2] & 0xFF) << 8 | (bytes[3] & 0xFF);
        return new Slot(ip, address.getPort());
    }
}
