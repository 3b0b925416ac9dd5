package dev.canopy.collectives.internal.multicast;

import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.RankFailedException;
import dev.canopy.multicast.internal.fabric.Fabric;
import dev.canopy.multicast.internal.groups.GroupLease;
import dev.canopy.multicast.internal.loop.VertxOwnerLoop;
import dev.canopy.multicast.internal.reliable.CommunicatorId;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import dev.canopy.multicast.internal.reliable.ReliableMulticast;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.Arrays;

/**
 * This member's place in one policy-managed multicast group: the reliable substrate ({@link ReliableMulticast})
 * among the group's ranks, on the leased address ({@link GroupLease#group}) of its own fabric endpoint, with its
 * reliable path on the communicator's {@link GroupLinks}. Opened when the group is created or joined, closed when
 * it is dropped. Communicator context only.
 */
final class GroupMember {

    private final int instance;
    private final int[] ranks;
    private final GroupLease lease;
    private final Fabric endpoint;
    private final GroupLinks links;
    private final ReliableMulticast substrate;

    private GroupMember(Communicator communicator, int instance, int[] ranks, GroupLease lease, Fabric endpoint,
            GroupLinks links, MulticastOptions options) {
        this.instance = instance;
        this.ranks = ranks;
        this.lease = lease;
        this.endpoint = endpoint;
        this.links = links;
        this.substrate = ReliableMulticast.create(
                new CommunicatorId(MulticastPath.jobKey(communicator.members()), communicator.contextId()),
                lease.group(instance), endpoint, links.open(instance, ranks, this::failed),
                new VertxOwnerLoop(communicator.context().owner(), communicator.context()), options);
    }

    /**
     * Joins group {@code instance} among {@code ranks} (communicator ranks, ascending) on {@code lease}: the
     * substrate posts its receive buffers on the context, so a datagram sent after the returned future completed
     * finds them.
     */
    static Future<GroupMember> join(Communicator communicator, int instance, int[] ranks, GroupLease lease,
            Future<Fabric> endpoint, GroupLinks links, MulticastOptions options) {
        return endpoint.compose(fabric -> {
            GroupMember member = new GroupMember(communicator, instance, ranks, lease, fabric, links, options);
            links.failure().ifPresent(member::failed);
            member.substrate.start();
            // start() posts the buffers with a task on the context: this one runs after it.
            return Future.<GroupMember>future(promise -> communicator.context().runOnContext(
                    ignored -> promise.complete(member)));
        });
    }

    GroupLease lease() {
        return lease;
    }

    /** The group-local rank of communicator rank {@code rank}. */
    int local(int rank) {
        int local = Arrays.binarySearch(ranks, rank);
        if (local < 0) {
            throw new IllegalArgumentException("rank " + rank + " is not in multicast group " + instance + " "
                    + Arrays.toString(ranks));
        }
        return local;
    }

    Future<Void> broadcast(Buffer message) {
        return substrate.broadcast(message);
    }

    /** The next message of communicator rank {@code root}'s stream. */
    Future<Buffer> receive(int root) {
        return substrate.receive(local(root));
    }

    /** Leaves the group: the substrate's buffers, the endpoint and the link go. */
    void close() {
        substrate.close();
        links.close(instance);
        endpoint.close();
    }

    private void failed(Throwable cause) {
        if (cause instanceof RankFailedException failure) {
            // A rank outside the group goes to the substrate under this member's own rank (as in MulticastPath).
            int local = Arrays.binarySearch(ranks, failure.rank());
            substrate.rankFailed(new RankFailedException(local >= 0 ? local : substrate.rank(), failure.node(),
                    failure.reason()));
        } else {
            substrate.close();
        }
    }
}
