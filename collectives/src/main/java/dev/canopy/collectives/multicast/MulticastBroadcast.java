package dev.canopy.collectives.multicast;

import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.Message;
import dev.canopy.core.comm.PointToPoint;
import dev.canopy.core.comm.RankFailedException;
import dev.canopy.core.node.Member;
import dev.canopy.multicast.fabric.Fabric;
import dev.canopy.multicast.fabric.MulticastGroup;
import dev.canopy.multicast.loop.VertxOwnerLoop;
import dev.canopy.multicast.reliable.CommunicatorId;
import dev.canopy.multicast.reliable.MulticastOptions;
import dev.canopy.multicast.reliable.MulticastStats;
import dev.canopy.multicast.reliable.ReliableMulticast;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * bcast with multicast inside each leaf group (one LAN or cluster, {@link LeafGroups}): the message
 * first crosses a point-to-point binomial tree between the groups' heads (the WAN and light-WAN part
 * of the hierarchy; the root heads its own group), then each head multicasts it to its group through
 * the reliable substrate ({@link ReliableMulticast} over the group's {@link Fabric} endpoint, its
 * reliable path a {@link CommunicatorLink} on the communicator's collective channel, its state on the
 * communicator's context). The substrate keeps every head's messages in order, so consecutive bcasts
 * need no sequence numbers of their own; members call bcast in the same order, as with MPI.
 *
 * <p>Failures: the link's {@code receive(ANY_SOURCE)} loop fails once any member of the communicator
 * fails; that failure stops the substrate, and every pending and later bcast fails with a
 * {@link RankFailedException} naming the dead rank of the communicator.
 */
public final class MulticastBroadcast implements BroadcastLayer {

    /** The head-to-head messages: a tag of its own, so FIFO per head holds across bcasts. */
    static final int WAN_TAG = CommunicatorLink.TAG + 1;

    private static final Logger LOG = LoggerFactory.getLogger(MulticastBroadcast.class);

    private final Communicator communicator;
    private final PointToPoint channel;
    private final Context context;
    private final LeafGroups groups;
    private final int[] groupRanks;
    private final int[] localOf;
    private final Fabric fabric;
    private final CommunicatorLink link;
    private final ReliableMulticast member; // null in a group of one
    private final String description;
    private volatile RankFailedException failure;

    private MulticastBroadcast(Communicator communicator, LeafGroups groups, Fabric fabric, MulticastOptions options,
            String description) {
        this.communicator = communicator;
        this.channel = communicator.collectiveChannel();
        this.context = communicator.context();
        this.groups = groups;
        int group = groups.groupOf(communicator.rank());
        this.groupRanks = groups.ranks(group);
        this.localOf = new int[communicator.size()];
        java.util.Arrays.fill(localOf, -1);
        for (int local = 0; local < groupRanks.length; local++) {
            localOf[groupRanks[local]] = local;
        }
        this.fabric = fabric;
        this.description = description;
        this.link = new CommunicatorLink(channel, groupRanks, this::linkFailed);
        this.member = groupRanks.length < 2 ? null : ReliableMulticast.create(
                new CommunicatorId(jobKey(communicator.members()), communicator.contextId()), groupOf(communicator, group),
                fabric, link, new VertxOwnerLoop(context.owner(), context), options);
    }

    /**
     * This member's side of multicast bcast over {@code groups}; {@code fabric} is its own endpoint (closed
     * with the layer). Every member of the communicator must open it, with the same groups.
     */
    static MulticastBroadcast open(Communicator communicator, LeafGroups groups, Fabric fabric, MulticastOptions options,
            String description) {
        MulticastBroadcast layer = new MulticastBroadcast(communicator, groups, fabric, options, description);
        if (layer.member != null) {
            layer.member.start();
        }
        return layer;
    }

    /** The multicast group of leaf group {@code group} of this communicator (the udp fabric maps it into 239.192/16). */
    static MulticastGroup groupOf(Communicator communicator, int group) {
        return new MulticastGroup(Math.floorMod(communicator.contextId() * 131 + group, 1 << 16));
    }

    /**
     * The job key of the substrate's packets: a digest of the members' node ids, equal on every member
     * and different for every other job (node ids are unique), so jobs sharing a group never mix.
     */
    static long jobKey(List<Member> members) {
        long hash = 0xcbf29ce484222325L; // FNV-1a 64
        for (Member m : members) {
            for (byte b : (m.id().value() + "\n").getBytes(StandardCharsets.UTF_8)) {
                hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
            }
        }
        return hash;
    }

    @Override
    public Future<Buffer> bcast(Buffer data, int root) {
        if (root < 0 || root >= communicator.size()) {
            return Future.failedFuture(new IllegalArgumentException("bcast root " + root + " is not a rank of the "
                    + communicator.size() + "-member communicator"));
        }
        Promise<Buffer> done = Promise.promise();
        context.runOnContext(ignored -> run(data, root).onComplete(done));
        return done.future();
    }

    private Future<Buffer> run(Buffer data, int root) {
        int me = communicator.rank();
        int group = groups.groupOf(me);
        int head = groups.head(group, root);
        if (me != head) {
            return fromSubstrate(member.receive(localOf[head]));
        }
        Future<Buffer> message = me == root ? Future.succeededFuture(data)
                : channel.receive(groups.parentHead(group, root), WAN_TAG).map(Message::payload);
        return message.compose(bytes -> {
            List<Future<Void>> sends = new ArrayList<>();
            for (int child : groups.childHeads(group, root)) {
                sends.add(channel.send(child, WAN_TAG, bytes));
            }
            if (member != null) {
                sends.add(fromSubstrate(member.broadcast(bytes)));
            }
            return Future.all(sends).map(bytes);
        });
    }

    /** The substrate's counters (zeros in a group of one). */
    public Future<MulticastStats> stats() {
        Promise<MulticastStats> stats = Promise.promise();
        context.runOnContext(ignored -> stats.complete(member == null
                ? new MulticastStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0) : member.stats()));
        return stats.future();
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public Optional<String> fallback() {
        return Optional.empty();
    }

    @Override
    public void close() {
        link.close();
        if (member != null) {
            member.close();
        }
        context.runOnContext(ignored -> fabric.close());
    }

    private void linkFailed(Throwable cause) {
        LOG.info("multicast bcast of rank {}: the communicator reports {}", communicator.rank(), cause.getMessage());
        if (cause instanceof RankFailedException rankFailure) {
            failure = rankFailure;
            if (member != null) {
                member.rankFailed(local(rankFailure));
            }
        } else if (member != null) {
            member.close();
        }
    }

    /**
     * The substrate names group-local ranks; a failure of a rank outside the group is handed to it under this
     * member's own rank (which it never sends an ABORT to), and callers see the communicator's exception.
     */
    private RankFailedException local(RankFailedException failed) {
        int local = failed.rank() >= 0 && failed.rank() < localOf.length ? localOf[failed.rank()] : -1;
        return new RankFailedException(local >= 0 ? local : link.rank(), failed.node(), failed.reason());
    }

    /** The substrate's future, its failures naming communicator ranks. */
    private <T> Future<T> fromSubstrate(Future<T> future) {
        return future.recover(e -> Future.failedFuture(translate(e)));
    }

    private Throwable translate(Throwable cause) {
        if (!(cause instanceof RankFailedException rankFailure)) {
            return cause;
        }
        RankFailedException known = failure;
        if (known != null) {
            return known;
        }
        int rank = rankFailure.rank();
        return rank >= 0 && rank < groupRanks.length
                ? new RankFailedException(groupRanks[rank], rankFailure.node(), rankFailure.reason()) : cause;
    }
}
