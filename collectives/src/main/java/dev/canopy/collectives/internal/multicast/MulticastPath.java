package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.data.MalformedMessageException;
import dev.canopy.collectives.internal.engine.BroadcastPath;
import dev.canopy.collectives.internal.engine.Exchange;
import dev.canopy.collectives.internal.engine.RootedTree;
import dev.canopy.collectives.internal.engine.TreeBroadcast;
import dev.canopy.collectives.internal.segmentation.PipelineSegmenter;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.RankFailedException;
import dev.canopy.core.node.Member;
import dev.canopy.multicast.internal.fabric.Fabric;
import dev.canopy.multicast.internal.fabric.MulticastGroup;
import dev.canopy.multicast.internal.loop.VertxOwnerLoop;
import dev.canopy.multicast.internal.reliable.CommunicatorId;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import dev.canopy.multicast.internal.reliable.MulticastStats;
import dev.canopy.multicast.internal.reliable.ReliableMulticast;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * bcast with multicast inside each leaf group (one LAN or cluster, {@link LeafGroups}), as a
 * {@link BroadcastPath} under {@code Collectives.bcast}. The message crosses the plan's tree between the
 * groups' heads ({@link GroupRoutes}: the WAN trees between coordinators, pipelined, on the collective's own
 * {@link Exchange}), then each head multicasts it in its group through the reliable substrate
 * ({@link ReliableMulticast} over the group's {@link Fabric} endpoint, its reliable path a
 * {@link CommunicatorLink}, its state on the communicator's context).
 *
 * <p>The root picks the carrier per message ({@link Carrier}): always multicast where the level file asks for
 * it by name, by the {@link BroadcastCostModel} where it says {@code auto}. Every head multicasts one
 * {@link Envelope} per bcast, in the order the bcasts were started (the substrate keeps each head's stream in
 * order, so members need no sequence numbers of their own): the message itself, or word that it comes down the
 * plan's pipelined point-to-point tree, or that the head could not get it.
 *
 * <p>Failures: the link's {@code receive(ANY_SOURCE)} loop fails once any member of the communicator fails; that
 * stops the substrate, and every pending and later bcast fails with the communicator's
 * {@link RankFailedException} naming the dead rank (the collective then fails with it, naming that rank).
 */
public final class MulticastPath implements BroadcastPath {

    /** The step of the heads' tree; {@link #TREE_STEP} that of the plan's tree when the tree carries the bytes. */
    static final int HEADS_STEP = 0;
    static final int TREE_STEP = 1;
    private static final int MAX_CACHED_ROUTES = 256;

    private static final Logger LOG = LoggerFactory.getLogger(MulticastPath.class);

    /**
     * What went through this member: bcasts by carrier, the substrate's counters, and its send windows right now.
     *
     * @param windowSlotsInUse packet buffers its root window and co-root windows hold (sent, not yet acknowledged)
     * @param windowSize       packets one window holds ({@code MulticastOptions.window()})
     */
    public record Stats(long multicastBcasts, long treeBcasts, MulticastStats substrate, int windowSlotsInUse,
                        int windowSize) {
    }

    private final Communicator communicator;
    private final Context context;
    private final int windowSize;
    private final LeafGroups groups;
    private final int[] groupRanks;
    private final int[] localOf;
    private final Fabric fabric;
    private final CommunicatorLink link;
    private final ReliableMulticast member; // null in a group of one
    private final LeafGroupAddress address;
    private final Optional<BroadcastCostModel> auto;
    private final int maxMessageBytes; // the substrate's limit, envelope included
    private final String description;
    private final Map<RootedTree, GroupRoutes> routes = new HashMap<>(); // context only; trees compare by identity
    private Future<Void> lastIssued = Future.succeededFuture(); // context only
    private long multicastBcasts; // context only
    private long treeBcasts; // context only
    private volatile RankFailedException failure;
    private final AtomicBoolean closed = new AtomicBoolean();

    private MulticastPath(Communicator communicator, LeafGroups groups, LeafGroupAddress address, Fabric fabric,
            MulticastOptions options, Optional<BroadcastCostModel> auto, String description) {
        this.communicator = communicator;
        this.context = communicator.context();
        this.groups = groups;
        int group = groups.groupOf(communicator.rank());
        this.groupRanks = groups.ranks(group);
        this.localOf = new int[communicator.size()];
        Arrays.fill(localOf, -1);
        for (int local = 0; local < groupRanks.length; local++) {
            localOf[groupRanks[local]] = local;
        }
        this.fabric = fabric;
        this.address = address;
        this.auto = auto;
        this.description = description;
        this.maxMessageBytes = options.maxMessageBytes();
        this.windowSize = options.window();
        this.link = new CommunicatorLink(communicator.collectiveChannel(), groupRanks, this::linkFailed);
        this.member = groupRanks.length < 2 ? null : ReliableMulticast.create(
                new CommunicatorId(jobKey(communicator.members()), communicator.contextId()), address.group(),
                fabric, link, new VertxOwnerLoop(context.owner(), context), options);
    }

    /**
     * This member's side of multicast bcast over {@code groups}, in its leaf group's {@code address} (released
     * with the path); {@code fabric} is its own endpoint (closed with the path). {@code auto} empty: every bcast multicasts; present: the model picks per size. Every member of
     * the communicator must open it, with the same groups and choice.
     */
    static MulticastPath open(Communicator communicator, LeafGroups groups, LeafGroupAddress address, Fabric fabric,
            MulticastOptions options, Optional<BroadcastCostModel> auto, String description) {
        MulticastPath path = new MulticastPath(communicator, groups, address, fabric, options, auto, description);
        if (path.member != null) {
            path.member.start();
        }
        return path;
    }

    /**
     * The unleased multicast group of leaf group {@code group} of this communicator, for in-process switches (the udp
     * fabric would map it into 239.192/16; real jobs lease their groups, {@link LeafGroupAddress}).
     */
    static MulticastGroup groupOf(Communicator communicator, int group) {
        return new MulticastGroup(Math.floorMod(communicator.contextId() * 131 + group, 1 << 16));
    }

    /**
     * The job key of the substrate's packets: a digest of the members' node ids, equal on every member and
     * different for every other job (node ids are unique), so jobs sharing a group never mix.
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
    public Future<Buffer> bcast(Exchange exchange, RootedTree tree, Buffer data, PipelineSegmenter pipeline) {
        int me = exchange.rank();
        int head = routesOf(tree).head(groups.groupOf(me));
        if (me != head) {
            return fromSubstrate(member.receive(localOf[head]))
                    .compose(bytes -> carry(Envelope.decode(bytes, head), exchange, tree, null, pipeline));
        }
        RootedTree heads = routesOf(tree).headsTree();
        Buffer local = me == tree.root() ? envelopeFor(data) : null;
        int segmentBytes = local == null ? 0 : pipeline.segmentBytes(local.length(), heads.depth());
        Future<Buffer> acrossHeads = new TreeBroadcast(exchange, heads, HEADS_STEP).run(local, segmentBytes);
        Future<Buffer> envelope = local != null ? Future.succeededFuture(local) : acrossHeads;
        Future<Void> multicast = multicastInOrder(envelope);
        Future<Buffer> result = envelope.compose(bytes -> carry(decodeFromParent(bytes, heads, me), exchange, tree,
                data, pipeline));
        return Future.all(acrossHeads, multicast, result).map(all -> result.result());
    }

    /**
     * The root's envelope: the message, or word that the tree carries it (always for a message larger than
     * the substrate accepts, so no head's stream ever misses a bcast).
     */
    private Buffer envelopeFor(Buffer data) {
        Carrier carrier = data.length() >= maxMessageBytes ? Carrier.TREE
                : auto.map(model -> model.choose(data.length())).orElse(Carrier.MULTICAST);
        return carrier == Carrier.MULTICAST ? Envelope.inline(data) : Envelope.tree();
    }

    private Envelope decodeFromParent(Buffer bytes, RootedTree heads, int me) {
        return Envelope.decode(bytes, me == heads.root() ? me : heads.parent(me));
    }

    /** The bytes the envelope announces: in it, or down the plan's tree ({@code data} at the root only). */
    private Future<Buffer> carry(Envelope envelope, Exchange exchange, RootedTree tree, Buffer data,
            PipelineSegmenter pipeline) {
        return switch (envelope.kind()) {
            case INLINE -> {
                multicastBcasts++;
                yield Future.succeededFuture(data != null && exchange.rank() == tree.root() ? data : envelope.body());
            }
            case TREE -> {
                treeBcasts++;
                boolean root = exchange.rank() == tree.root();
                yield new TreeBroadcast(exchange, tree, TREE_STEP).run(root ? data : null,
                        root ? pipeline.segmentBytes(data.length(), tree.depth()) : 0);
            }
            case FAILED -> Future.failedFuture(new MalformedMessageException("the head of rank " + exchange.rank()
                    + "'s multicast group could not get the bcast: " + envelope.reason()));
        };
    }

    /**
     * Multicasts each bcast's envelope in the order the bcasts started, whichever envelope is ready first (heads'
     * messages cross the WAN on different paths); a bcast whose envelope failed still takes its place, as FAILED.
     */
    private Future<Void> multicastInOrder(Future<Buffer> envelope) {
        if (member == null) {
            return Future.succeededFuture();
        }
        Promise<Void> issued = Promise.promise();
        Future<Void> previous = lastIssued;
        lastIssued = issued.future();
        return previous.transform(ignored -> envelope.transform(ready -> {
            try {
                Buffer bytes = ready.succeeded() ? ready.result()
                        : Envelope.failed("rank " + communicator.rank() + " failed: " + ready.cause().getMessage());
                return fromSubstrate(member.broadcast(bytes));
            } finally {
                issued.complete();
            }
        }));
    }

    private GroupRoutes routesOf(RootedTree tree) {
        GroupRoutes known = routes.get(tree);
        if (known == null) {
            if (routes.size() >= MAX_CACHED_ROUTES) {
                routes.clear();
            }
            known = GroupRoutes.of(groups, tree);
            routes.put(tree, known);
        }
        return known;
    }

    /** Packed scatter by {@link ScatterCarrierChoice}: always where multicast is asked for by name, per size on {@code auto}. */
    @Override
    public boolean packsScatter(long bytesPerReceiver, int receivers) {
        return bytesPerReceiver == -1 || scatterChoice().packs(bytesPerReceiver, receivers);
    }

    /** How this path carries scatters. */
    public ScatterCarrierChoice scatterChoice() {
        return new ScatterCarrierChoice(auto, maxMessageBytes);
    }

    /** This member's counters. */
    public Future<Stats> stats() {
        Promise<Stats> stats = Promise.promise();
        context.runOnContext(ignored -> stats.complete(member == null
                ? new Stats(multicastBcasts, treeBcasts, new MulticastStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0), 0, windowSize)
                : new Stats(multicastBcasts, treeBcasts, member.stats(), member.windowSlotsInUse(), windowSize)));
        return stats.future();
    }

    @Override
    public String description() {
        return description;
    }

    /** The model that picks the carrier per size ({@code auto}); empty when every bcast multicasts. */
    public Optional<BroadcastCostModel> costModel() {
        return auto;
    }

    /** Leaves the group and frees the substrate's buffers; bcasts on this path fail afterwards. */
    @Override
    public void close() {
        if (closed.getAndSet(true)) {
            return;
        }
        link.close();
        if (member != null) {
            member.close();
        }
        context.runOnContext(ignored -> fabric.close());
        address.release();
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
