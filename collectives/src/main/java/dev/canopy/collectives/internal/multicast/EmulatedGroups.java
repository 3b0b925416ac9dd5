package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.multicast.internal.groups.GroupAllocator;
import dev.canopy.multicast.internal.groups.GroupPolicy;
import dev.canopy.multicast.internal.groups.ManagementTimes;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link GroupCollectives} on WORLD of every process of an {@link EmulatedGrid}, as each process of a real job
 * opens them: one {@link GroupAllocator} per node, on the node's own ZooKeeper session (its leases go with it),
 * leasing from the grid's {@code multicast_range}/{@code multicast_ports}. Blocking: for tests and benchmarks, not
 * for event loops.
 */
public final class EmulatedGroups {

    private EmulatedGroups() {
    }

    /** Opens them on every member at once (a collective) and waits; indexed by rank. */
    public static List<GroupCollectives> open(EmulatedGrid job, GridModel grid, GroupEndpoints endpoints,
            MulticastOptions options, GroupPolicy defaultPolicy, ManagementTimes times) {
        List<Future<GroupCollectives>> opening = new ArrayList<>();
        for (Communicator world : job.world()) {
            CanopyNode node = job.nodes().stream().filter(candidate -> candidate.id().equals(world.member(world.rank()).id()))
                    .findFirst().orElseThrow();
            GroupAllocator allocator = new GroupAllocator(node.zooKeeperSession(), node.job(), grid.multicast(),
                    node.context(), world.rank());
            Collectives collectives = new Collectives(world, ConfiguredPlans.of(world.members(), grid),
                    CollectiveSettings.defaults());
            opening.add(GroupCollectives.open(collectives, allocator, endpoints, options, defaultPolicy, times));
        }
        return opening.stream().map(Blocking::await).toList();
    }

    /** Closes every member's groups and waits until their leases are released. */
    public static void close(List<GroupCollectives> members) {
        members.stream().map(GroupCollectives::closeAsync).toList().forEach(Blocking::await);
    }
}
