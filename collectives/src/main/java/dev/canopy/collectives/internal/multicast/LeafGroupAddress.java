package dev.canopy.collectives.internal.multicast;

import dev.canopy.core.comm.Communicator;
import dev.canopy.multicast.internal.fabric.MulticastGroup;
import dev.canopy.multicast.internal.groups.GroupAllocator;
import dev.canopy.multicast.internal.groups.GroupKey;
import dev.canopy.multicast.internal.groups.GroupLease;
import io.vertx.core.Future;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The multicast group of this member's leaf group at one level, for the bcast layer ({@link MulticastPath}): with a
 * {@link GroupAllocator} (every process of a real job) its address and port are leased through ZooKeeper under
 * {@link GroupKey#leaf} (the first member of the leaf group to ask leases it, the others find it), so two jobs on
 * one LAN never share one; without (in-process switches, which keep jobs apart themselves) it is the unleased
 * number {@link MulticastPath#groupOf}. The lease goes back to the range with {@link #release} (the communicator's
 * path closing, or the level not being used), or with the owner's ZooKeeper session.
 */
final class LeafGroupAddress {

    private static final Logger LOG = LoggerFactory.getLogger(LeafGroupAddress.class);

    private final MulticastGroup group;
    private final Optional<GroupAllocator> allocator;
    private final Optional<GroupLease> lease;
    private final AtomicBoolean released = new AtomicBoolean();

    private LeafGroupAddress(MulticastGroup group, Optional<GroupAllocator> allocator, Optional<GroupLease> lease) {
        this.group = group;
        this.allocator = allocator;
        this.lease = lease;
    }

    /** Leases (or finds) this member's leaf group at {@code level} when {@code allocator} is given. */
    static Future<LeafGroupAddress> of(Communicator communicator, LeafGroups groups, String level,
            Optional<GroupAllocator> allocator) {
        int group = groups.groupOf(communicator.rank());
        MulticastGroup unleased = MulticastPath.groupOf(communicator, group);
        if (allocator.isEmpty()) {
            return Future.succeededFuture(new LeafGroupAddress(unleased, allocator, Optional.empty()));
        }
        return allocator.get().open(GroupKey.leaf(communicator.contextId(), level, group)).map(leased ->
                new LeafGroupAddress(leased.group(unleased.id()), allocator, Optional.of(leased)));
    }

    MulticastGroup group() {
        return group;
    }

    /** Gives the lease back if this member owns it (idempotent; failures are logged, the session ends it anyway). */
    void release() {
        if (lease.isPresent() && !released.getAndSet(true)) {
            allocator.orElseThrow().release(lease.get()).onFailure(e -> LOG.warn("could not release multicast {}: {}"
                    + " (it ends with this process's ZooKeeper session)", lease.get(), e.getMessage()));
        }
    }

    @Override
    public String toString() {
        return lease.map(GroupLease::toString).orElse("unleased multicast group " + group.id());
    }
}
