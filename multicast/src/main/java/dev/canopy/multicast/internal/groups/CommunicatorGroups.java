package dev.canopy.multicast.internal.groups;

import dev.canopy.core.internal.emulation.NanoClock;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The multicast groups of one communicator at one member, on top of a {@link GroupAllocator}:
 *
 * <ul>
 *   <li>{@link GroupPolicy#STATIC}: {@link #communicatorGroup()} is one group for the whole communicator,
 *       opened when the communicator is created (the first member to open it leases it, the others find it)
 *       and released with the communicator ({@link #close()}).</li>
 *   <li>{@link GroupPolicy#DYNAMIC}: for one operation, the root {@link #createTargetGroup creates} a group
 *       for the target set, announces it (on the static group), the targets {@link #joinTargetGroup join}
 *       it, the data moves, and everyone {@link #drop drops} it.</li>
 *   <li>{@link GroupPolicy#PERSISTENT}: the same calls, once per persistent request instead of once per
 *       operation: the group lives from the request's initialisation to its close.</li>
 * </ul>
 *
 * <p>Ordering between members (the root creates before it announces; nobody drops before the data moved) is
 * the caller's: the collective that uses the groups. Each creation and destruction is timed into
 * {@link #times()}. Methods may be called from any thread; futures complete on the allocator's context.
 */
public final class CommunicatorGroups {

    private enum State { OPEN, CLOSED }

    private final GroupAllocator allocator;
    private final int context;
    private final NanoClock clock;
    private final ManagementTimes times;
    private final AtomicReference<State> state = new AtomicReference<>(State.OPEN);
    private final AtomicReference<Future<GroupLease>> communicatorGroup = new AtomicReference<>();
    private final Map<GroupKey, TargetGroup> targetGroups = new ConcurrentHashMap<>();

    private record TargetGroup(GroupPolicy policy, GroupLease lease) {
    }

    /**
     * @param context the communicator's context id, which names its groups within the job
     * @param times   where creation and destruction times go (shared by the communicators of a process, or not)
     */
    public CommunicatorGroups(GroupAllocator allocator, int context, NanoClock clock, ManagementTimes times) {
        this.allocator = allocator;
        this.context = context;
        this.clock = clock;
        this.times = times;
    }

    public ManagementTimes times() {
        return times;
    }

    /**
     * The communicator's static group; opened by the first call, the same future afterwards. A failed open
     * (an exhausted range, ZooKeeper unreachable) is forgotten, so the next call tries again.
     */
    public Future<GroupLease> communicatorGroup() {
        Future<GroupLease> existing = communicatorGroup.get();
        if (existing != null) {
            return existing;
        }
        if (state.get() == State.CLOSED) {
            return closed();
        }
        long start = clock.nanoTime();
        Future<GroupLease> opened = allocator.open(GroupKey.communicator(context))
                .onSuccess(lease -> times.created(GroupPolicy.STATIC, clock.nanoTime() - start));
        if (!communicatorGroup.compareAndSet(null, opened)) {
            return communicatorGroup.get();
        }
        opened.onFailure(e -> communicatorGroup.compareAndSet(opened, null));
        return opened;
    }

    /** At the root: leases a new group for target set {@code id} (an operation, or a persistent request). */
    public Future<GroupLease> createTargetGroup(GroupPolicy policy, long id) {
        return targetGroup(policy, id, allocator::create);
    }

    /** At a target: the group the root created for {@code id}. */
    public Future<GroupLease> joinTargetGroup(GroupPolicy policy, long id) {
        return targetGroup(policy, id, allocator::lookup);
    }

    /** Drops a target group after its operation (or its persistent request's close): released if this member owns it. */
    public Future<Void> drop(GroupLease lease) {
        TargetGroup group = targetGroups.remove(lease.key());
        if (group == null) {
            return Future.failedFuture(new IllegalArgumentException(lease + " is not an open target group of context "
                    + Integer.toUnsignedString(context)));
        }
        return timedRelease(group.policy(), group.lease());
    }

    /** Releases the static group and any target group still open; later calls fail. Idempotent. */
    public Future<Void> close() {
        if (!state.compareAndSet(State.OPEN, State.CLOSED)) {
            return Future.succeededFuture();
        }
        List<Future<Void>> releases = new ArrayList<>();
        List<GroupKey> keys = new ArrayList<>(targetGroups.keySet());
        keys.forEach(key -> {
            TargetGroup group = targetGroups.remove(key);
            if (group != null) {
                releases.add(timedRelease(group.policy(), group.lease()));
            }
        });
        Future<GroupLease> own = communicatorGroup.get();
        if (own != null) {
            releases.add(own.transform(opened -> opened.succeeded()
                    ? timedRelease(GroupPolicy.STATIC, opened.result()) : Future.succeededFuture()));
        }
        return Future.all(releases).mapEmpty();
    }

    private Future<GroupLease> targetGroup(GroupPolicy policy, long id,
            Function<GroupKey, Future<GroupLease>> step) {
        if (policy != GroupPolicy.DYNAMIC && policy != GroupPolicy.PERSISTENT) {
            return Future.failedFuture(new IllegalArgumentException("target groups are for the dynamic and persistent"
                    + " policies, not " + policy.configName() + (policy == GroupPolicy.AUTO
                    ? " (resolve auto with the cost model first)" : policy == GroupPolicy.STATIC ? " (use communicatorGroup())"
                    : " (it needs no group)")));
        }
        if (state.get() == State.CLOSED) {
            return closed();
        }
        long start = clock.nanoTime();
        return step.apply(GroupKey.target(context, policy, id)).map(lease -> {
            times.created(policy, clock.nanoTime() - start);
            targetGroups.put(lease.key(), new TargetGroup(policy, lease));
            return lease;
        });
    }

    private Future<Void> timedRelease(GroupPolicy policy, GroupLease lease) {
        long start = clock.nanoTime();
        return allocator.release(lease).onSuccess(done -> times.destroyed(policy, clock.nanoTime() - start));
    }

    private <T> Future<T> closed() {
        return Future.failedFuture(new IllegalStateException("the multicast groups of context "
                + Integer.toUnsignedString(context) + " are closed (the communicator was freed)"));
    }
}
