package dev.canopy.collectives;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.internal.engine.BroadcastPath;
import dev.canopy.collectives.internal.engine.CompletionAgreement;
import dev.canopy.collectives.internal.engine.Exchange;
import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.collectives.internal.engine.PairwiseExchange;
import dev.canopy.collectives.internal.engine.PrefixScan;
import dev.canopy.collectives.internal.engine.RankBlocks;
import dev.canopy.collectives.internal.engine.RootedTree;
import dev.canopy.collectives.internal.engine.SiteExchange;
import dev.canopy.collectives.internal.engine.SiteRoutes;
import dev.canopy.collectives.internal.engine.Sites;
import dev.canopy.collectives.internal.engine.SplitScatter;
import dev.canopy.collectives.internal.engine.TreeBarrier;
import dev.canopy.collectives.internal.engine.TreeBroadcast;
import dev.canopy.collectives.internal.engine.TreeGather;
import dev.canopy.collectives.internal.engine.TreeReduce;
import dev.canopy.collectives.internal.engine.TreeScatter;
import dev.canopy.collectives.internal.engine.WindowedGather;
import dev.canopy.collectives.internal.multicast.MulticastScatter;
import dev.canopy.collectives.internal.multicast.PersistentRequest;
import dev.canopy.collectives.internal.segmentation.GatherSplit;
import dev.canopy.collectives.plan.CollectivePlan;
import dev.canopy.collectives.reduce.ReduceOp;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.node.NodeLogger;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * MPI-style collectives over one communicator, on {@link Buffer}s; {@link #typed} gives the same
 * operations on primitive arrays. Every method may be called from any thread and returns at once;
 * the work runs on the communicator's event loop and the future completes there.
 *
 * <p>Collectives match in the order each member starts them: each start takes the communicator's
 * next sequence number, and a member that starts a different operation in the same position gets
 * a {@link CollectiveMismatchException}. Several collectives may be in flight at once. When a
 * member fails, every survivor's future fails with a {@link CollectiveFailedException} naming it.
 *
 * <p>bcast asks a {@link BroadcastPath} how its bytes move: by default the plan's point-to-point trees;
 * {@code BroadcastLayers.plugInto} gives collectives whose bcast multicasts where the level file asks for
 * it ({@code dev.canopy.collectives.internal.multicast}).
 *
 * <p>On a plan with trees per message size ({@link CollectivePlan#choosesBySize}, a live epoch's
 * {@code SizedPlan}), every collective picks its size class's trees itself: where only the root knows the size
 * (bcast, scatter, scatterv) the root picks and its frames carry the choice; where every member knows its own
 * (reduce, allreduce, reduce_scatter, gather, allgather) each member picks and a {@code SizeClassCheck} makes a
 * difference fail as a {@link CollectiveMismatchException}; the others (barrier, the v variants of gather and
 * allgather, alltoall(v), scan, exscan) run on class 0, the latency trees.
 *
 * <p>Create exactly one instance per communicator (derive others with {@link #withPlan}, which
 * share its sequence) and use it on every member.
 */
public final class Collectives {

    private final Communicator communicator;
    private final CollectivePlan plan;
    private final CollectiveSettings settings;
    private final Sequencer sequencer;
    private final BroadcastPath broadcastPath;
    private final CollectiveObserver observer;
    /** {@code site/host#rank}, how log lines name this member: built once, not per operation. */
    private final String label;
    /** How each collective gets its tree from the plan, by size class where the plan has several. */
    private final TreeChoice trees;

    /** bcast on the plan's point-to-point trees. */
    public Collectives(Communicator communicator, CollectivePlan plan, CollectiveSettings settings) {
        this(communicator, plan, settings, new Sequencer(), BroadcastPath.pointToPoint(), CollectiveObserver.NONE);
    }

    private Collectives(Communicator communicator, CollectivePlan plan, CollectiveSettings settings, Sequencer sequencer,
            BroadcastPath broadcastPath, CollectiveObserver observer) {
        this.communicator = communicator;
        this.plan = plan;
        this.settings = settings;
        this.sequencer = sequencer;
        this.broadcastPath = broadcastPath;
        this.observer = observer;
        this.label = NodeLogger.label(communicator.member(communicator.rank()).coordinates(),
                OptionalInt.of(communicator.rank()));
        this.trees = new TreeChoice(plan, sequencer, communicator.context(), communicator.rank());
    }

    /**
     * The same communicator and sequence with another plan (e.g. another heavy-WAN algorithm). Every
     * member must switch at the same point of its sequence of collectives.
     */
    public Collectives withPlan(CollectivePlan otherPlan) {
        return new Collectives(communicator, otherPlan, settings, sequencer, broadcastPath, observer);
    }

    /** The same communicator and sequence with other settings (e.g. calibrated thresholds). */
    public Collectives withSettings(CollectiveSettings otherSettings) {
        return new Collectives(communicator, plan, otherSettings, sequencer, broadcastPath, observer);
    }

    /**
     * The same communicator, plan and sequence with bcast on {@code path}; every member must use the same kind
     * of path (the multicast layer's opening makes them agree).
     */
    public Collectives withBroadcastPath(BroadcastPath path) {
        return new Collectives(communicator, plan, settings, sequencer, path, observer);
    }

    /**
     * The same communicator, plan and sequence, with every operation started from the returned object (and those
     * derived from it) reported to {@code newObserver} (e.g. the member's operation timings for the dashboard).
     */
    public Collectives withObserver(CollectiveObserver newObserver) {
        return new Collectives(communicator, plan, settings, sequencer, broadcastPath, newObserver);
    }

    /** How bcast moves its bytes, and why not by multicast when the level file asked for it ({@link BroadcastPath#fallback()}). */
    public BroadcastPath broadcastPath() {
        return broadcastPath;
    }

    public Communicator communicator() {
        return communicator;
    }

    public CollectivePlan plan() {
        return plan;
    }

    public CollectiveSettings settings() {
        return settings;
    }

    public int rank() {
        return communicator.rank();
    }

    public int size() {
        return communicator.size();
    }

    /** The same operations on primitive arrays of {@code type}, e.g. {@code typed(ArrayType.INTS)}. */
    public <A> TypedCollectives<A> typed(ArrayType<A> type) {
        return new TypedCollectives<>(this, type);
    }

    /** Completes on every member once every member has started it. */
    public Future<Void> barrier() {
        return start(Operation.BARRIER, 0, 0, SizeChoice.NONE, (exchange, tree) -> new TreeBarrier(exchange, tree, 0).run());
    }

    /** The root's {@code data} on every member ({@code data} is ignored elsewhere and may be null). */
    public Future<Buffer> bcast(Buffer data, int root) {
        long bytes = data == null ? 0 : data.length();
        SizeChoice choice = broadcastPath instanceof BroadcastPath.TreePath ? SizeChoice.ROOT : SizeChoice.NONE;
        return start(Operation.BCAST, root, bytes, choice, (exchange, tree) -> downward(exchange, tree,
                broadcastPath.bcast(exchange, tree, data, settings.pipeline())));
    }

    /**
     * Rank r gets bytes {@code r*bytesPerRank .. (r+1)*bytesPerRank} of the root's {@code data}.
     * Every member passes the same {@code bytesPerRank}; above the calibrated leap S the scatter runs as
     * several smaller ones. Where bcast multicasts, small pieces go as one packed multicast instead
     * ({@link BroadcastPath#packsScatter}).
     */
    public Future<Buffer> scatter(Buffer data, int bytesPerRank, int root) {
        long bytes = data == null ? 0 : data.length();
        if (broadcastPath.packsScatter(bytesPerRank, size())) {
            return start(Operation.SCATTER, root, bytes, SizeChoice.NONE, (exchange, tree) -> downward(exchange, tree, MulticastScatter.scatter(
                    broadcastPath, exchange, tree, exchange.rank() == root ? blocksOf(data, bytesPerRank, size()) : null,
                    settings.pipeline())));
        }
        int parts = settings.splitPlanner().scatter(bytesPerRank).parts();
        return start(Operation.SCATTER, root, bytes, SizeChoice.ROOT, (exchange, tree) -> downward(exchange, tree,
                new SplitScatter(exchange, tree, parts)
                        .run(exchange.rank() == root ? blocksOf(data, bytesPerRank, size()) : null)));
    }

    /**
     * Rank r gets {@code blocks.get(r)} of the root's list (ignored elsewhere). Where bcast multicasts, the root
     * multicasts its pieces packed in one message, or says that the tree scatter carries them (large pieces).
     */
    public Future<Buffer> scatterv(List<Buffer> blocks, int root) {
        long bytes = totalBytes(blocks);
        if (broadcastPath.packsScatter(-1, size())) {
            return start(Operation.SCATTERV, root, bytes, SizeChoice.NONE, (exchange, tree) -> downward(exchange, tree, MulticastScatter.scatterv(
                    broadcastPath, exchange, tree, blocks, settings.pipeline())));
        }
        return start(Operation.SCATTERV, root, bytes, SizeChoice.ROOT, (exchange, tree) -> downward(exchange, tree,
                new TreeScatter(exchange, tree, 0).run(exchange.rank() == root ? RankBlocks.ofRanks(blocks) : null)));
    }

    /**
     * A persistent bcast (MPI-4 {@code MPI_Bcast_init}) of {@code bytes} bytes from {@code root}: a collective that
     * every member calls with the same arguments (a mismatch fails the future on every member with a
     * {@link CollectiveMismatchException}); then each {@link PersistentRequest#start} is one broadcast.
     */
    public Future<PersistentRequest> bcastInit(int bytes, int root) {
        return PersistentRequest.bcastInit(this, bytes, root);
    }

    /** A persistent scatter of {@code bytesPerRank} bytes to each rank from {@code root}; as {@link #bcastInit}. */
    public Future<PersistentRequest> scatterInit(int bytesPerRank, int root) {
        return PersistentRequest.scatterInit(this, bytesPerRank, root);
    }

    /**
     * A persistent scatterv from {@code root} of {@code counts[r]} bytes to rank r: the root gives the counts, the
     * other members the same counts or null; the init sends them to every member once, and each start is one
     * broadcast of the data only. As {@link #bcastInit}.
     */
    public Future<PersistentRequest> scattervInit(int[] counts, int root) {
        return PersistentRequest.scattervInit(this, counts, root);
    }

    /**
     * The root gets every rank's {@code data} (all of one length) concatenated in rank order; others get
     * empty. In the calibrated escalation range [M1, M2] every receiver pulls the blocks in pieces, a window of
     * them at a time, so that the senders never overflow its port ({@link WindowedGather}).
     */
    public Future<Optional<Buffer>> gather(Buffer data, int root) {
        GatherSplit split = settings.splitPlanner().gather(data.length(), size() - 1);
        return start(Operation.GATHER, root, data.length(), SizeChoice.EVERY_MEMBER, (exchange, tree) -> upward(exchange, tree,
                gathered(exchange, tree, split, data)
                        .map(blocks -> blocks.map(all -> concatenate(all, data.length(), Operation.GATHER)))));
    }

    /** The native tree gather, or the windowed one in pieces; every rank's block in rank order at the root. */
    private Future<Optional<List<Buffer>>> gathered(Exchange exchange, RootedTree tree, GatherSplit split, Buffer data) {
        if (split.isWhole()) {
            return new TreeGather(exchange, tree, 0).run(data).map(blocks -> exchange.rank() == tree.root()
                    ? Optional.of(blocks.inRankOrder(exchange.size())) : Optional.empty());
        }
        return new WindowedGather(exchange, tree, split.parts(), split.window()).run(data);
    }

    /** The root gets every rank's {@code data} (any lengths), indexed by rank; others get empty. */
    public Future<Optional<List<Buffer>>> gatherv(Buffer data, int root) {
        return start(Operation.GATHERV, root, data.length(), SizeChoice.NONE, (exchange, tree) -> upward(exchange, tree,
                new TreeGather(exchange, tree, 0).run(data)
                        .map(blocks -> exchange.rank() == root ? Optional.of(inRankOrder(blocks)) : Optional.empty())));
    }

    /** Every member gets every rank's {@code data} (all of one length) concatenated in rank order. */
    public Future<Buffer> allgather(Buffer data) {
        return start(Operation.ALLGATHER, 0, data.length(), SizeChoice.EVERY_MEMBER, (exchange, tree) -> gatherToAll(exchange, tree, data)
                .map(all -> concatenate(all, data.length(), Operation.ALLGATHER)));
    }

    /** Every member gets every rank's {@code data} (any lengths), indexed by rank. */
    public Future<List<Buffer>> allgatherv(Buffer data) {
        return start(Operation.ALLGATHERV, 0, data.length(), SizeChoice.NONE, (exchange, tree) -> gatherToAll(exchange, tree, data));
    }

    /**
     * The root gets {@code op} applied element-wise across ranks in rank order; others get empty. Long
     * vectors are reduced in pipelined segments when the operator is element-wise.
     */
    public Future<Optional<Buffer>> reduce(Buffer data, ElementType type, ReduceOp op, int root) {
        return start(Operation.REDUCE, root, data.length(), SizeChoice.EVERY_MEMBER, (exchange, tree) -> upward(exchange, tree,
                new TreeReduce(exchange, tree, 0).run(data, type, op, reduceSegmentBytes(data, type, op, tree))));
    }

    /**
     * Every member gets {@code op} applied element-wise across ranks in rank order: a pipelined reduce
     * to rank 0 whose segments rank 0 broadcasts down the same tree as soon as each is reduced.
     */
    public Future<Buffer> allreduce(Buffer data, ElementType type, ReduceOp op) {
        return start(Operation.ALLREDUCE, 0, data.length(), SizeChoice.EVERY_MEMBER, (exchange, tree) -> {
            int segmentBytes = reduceSegmentBytes(data, type, op, tree);
            TreeReduce up = new TreeReduce(exchange, tree, 0);
            TreeBroadcast down = new TreeBroadcast(exchange, tree, 1);
            if (exchange.rank() != tree.root()) {
                Future<Optional<Buffer>> reduced = up.run(data, type, op, segmentBytes);
                Future<Buffer> result = down.run(null, segmentBytes);
                return Future.all(reduced, result).map(both -> result.result());
            }
            TreeBroadcast.RootFeed feed = down.feed(data.length(), segmentBytes);
            return up.run(data, type, op, segmentBytes, feed::send)
                    .compose(result -> feed.sent().map(result.orElseThrow()));
        });
    }

    /** Reduces like {@link #allreduce}, then rank r keeps {@code counts[r]} elements of the result, in order. */
    public Future<Buffer> reduceScatter(Buffer data, ElementType type, ReduceOp op, int[] counts) {
        return start(Operation.REDUCE_SCATTER, 0, data.length(), SizeChoice.EVERY_MEMBER, (exchange, tree) -> new TreeReduce(exchange, tree, 0)
                .run(data, type, op, reduceSegmentBytes(data, type, op, tree))
                .compose(result -> new TreeScatter(exchange, tree, 1)
                        .run(result.map(all -> RankBlocks.ofRanks(split(all, counts, type))).orElse(null))));
    }

    /** Rank r gets {@code op} over ranks 0..r, in rank order; the WAN is crossed once (see {@link PrefixScan}). */
    public Future<Buffer> scan(Buffer data, ElementType type, ReduceOp op) {
        return start(Operation.SCAN, data.length(), exchange -> prefixScan(exchange).run(data, type, op)
                .map(PrefixScan.Prefixes::inclusive));
    }

    /** Rank r gets {@code op} over ranks 0..r-1, in rank order; rank 0 gets empty. */
    public Future<Optional<Buffer>> exscan(Buffer data, ElementType type, ReduceOp op) {
        return start(Operation.EXSCAN, data.length(), exchange -> prefixScan(exchange).run(data, type, op)
                .map(prefixes -> Optional.ofNullable(prefixes.exclusive())));
    }

    /** Rank r sends bytes {@code d*bytesPerRank ..} of {@code data} to rank d and gets the blocks for it in rank order. */
    public Future<Buffer> alltoall(Buffer data, int bytesPerRank) {
        return start(Operation.ALLTOALL, data.length(), exchange -> allToAll(exchange, blocksOf(data, bytesPerRank, size()))
                .map(all -> concatenate(all, bytesPerRank, Operation.ALLTOALL)));
    }

    /** Rank r sends {@code blocks.get(d)} to rank d and gets one block from every rank, indexed by source. */
    public Future<List<Buffer>> alltoallv(List<Buffer> blocks) {
        return start(Operation.ALLTOALLV, totalBytes(blocks), exchange -> allToAll(exchange, blocks));
    }

    /**
     * As the settings' {@link AllToAllRoute} says; by default, when the members span several sites,
     * through the site coordinators ({@link SiteExchange}), so that only coordinators cross the WAN,
     * each site's aggregate for another taking the fastest path the plan predicts between their
     * coordinators; directly between pairs within one site.
     */
    private Future<List<Buffer>> allToAll(Exchange exchange, List<Buffer> blocks) {
        Sites sites = sites();
        return switch (settings.allToAllRoute().resolvedFor(sites.count())) {
            case RELAYED -> new SiteExchange(exchange, sites, fastestRoutes(sites), 0).run(blocks);
            case SITES -> new SiteExchange(exchange, sites, SiteRoutes.direct(sites.count()), 0).run(blocks);
            case PAIRWISE -> new PairwiseExchange(exchange, 0).run(blocks);
            case AUTO -> throw new IllegalStateException("AllToAllRoute.resolvedFor returned AUTO");
        };
    }

    /**
     * The coordinators' routes of least predicted time by the plan's latencies and transfers: the same on every
     * member, since every member has the same plan and settings.
     */
    private PrefixScan prefixScan(Exchange exchange) {
        return new PrefixScan(exchange, sites(), plan::hopMs, settings.relayHopMs(), 0);
    }

    private SiteRoutes fastestRoutes(Sites sites) {
        return SiteRoutes.fastest(sites, plan::hopMs, settings.relayHopMs());
    }

    /** The members' sites, from their coordinates (a site is named by its wan group and its own name). */
    private Sites sites() {
        return Sites.ofMembers(communicator.members());
    }

    /**
     * Takes the next sequence number on the communicator's context and runs the stages there; the observer hears
     * the start here, the sequence number and the completion there.
     */
    private <T> Future<T> start(Operation operation, long bytes, Function<Exchange, Future<T>> stages) {
        return start(operation, 0, bytes, plan, exchange -> sequencer.inTurn(() -> Future.succeededFuture())
                .compose(turn -> stages.apply(exchange)));
    }

    /**
     * @param chosen the plan whose id the member's frames carry from the start: the size class's plan when the member
     *     picked one, else {@link #plan} (a receiver that learns its root's choice adopts it from the first frame)
     */
    private <T> Future<T> start(Operation operation, int root, long bytes, CollectivePlan chosen,
            Function<Exchange, Future<T>> stages) {
        CollectiveObserver.Observation observation = observer.started(operation, root, bytes);
        Promise<T> promise = Promise.promise();
        communicator.context().runOnContext(ignored -> {
            int sequence = sequencer.next();
            observation.sequenced(communicator.contextId(), sequence, plan);
            Exchange exchange = new Exchange(communicator.collectiveChannel(), operation, sequence, chosen.epoch(), label);
            exchange.run(() -> stages.apply(exchange)).onComplete(done -> {
                if (done.succeeded()) {
                    observation.ranOn(plan.sizeClassPlan(exchange.plan()).orElse(plan));
                }
                observation.completed(done.cause());
                promise.handle(done);
            });
        });
        return promise.future();
    }

    /**
     * Like {@link #start(Operation, long, Function)}, with the plan's tree rooted at {@code root}; the sequence number
     * is taken first (so collectives keep their order), the tree is computed off the event loop if it is new, and
     * the stages begin in the order the collectives started ({@link Sequencer#inTurn}).
     */
    private <T> Future<T> start(Operation operation, int root, long bytes, SizeChoice choice,
            BiFunction<Exchange, RootedTree, Future<T>> stages) {
        if (root < 0 || root >= size()) {
            throw new IllegalArgumentException("root " + root + " is not a rank of this " + size() + "-member communicator");
        }
        return start(operation, root, bytes, trees.firstPlan(choice, root, bytes),
                exchange -> trees.run(choice, exchange, root, bytes, stages));
    }

    private static long totalBytes(List<Buffer> blocks) {
        return blocks == null ? 0 : blocks.stream().mapToLong(Buffer::length).sum();
    }


    /** With {@link Completion#AGREED}, holds a downward operation's result until every member has its data. */
    private <T> Future<T> downward(Exchange exchange, RootedTree tree, Future<T> result) {
        return settings.completion() == Completion.AGREED
                ? result.compose(new CompletionAgreement(exchange, tree)::afterDownward)
                : result;
    }

    /** With {@link Completion#AGREED}, holds an upward operation's result until the root confirms it got everything. */
    private <T> Future<T> upward(Exchange exchange, RootedTree tree, Future<T> result) {
        return settings.completion() == Completion.AGREED
                ? result.compose(new CompletionAgreement(exchange, tree)::afterUpward)
                : result;
    }

    private Future<Buffer> broadcast(Exchange exchange, RootedTree tree, int step, Buffer data) {
        int bytes = data == null ? 0 : data.length();
        return new TreeBroadcast(exchange, tree, step).run(data, settings.pipeline().segmentBytes(bytes, tree.depth()));
    }

    private int reduceSegmentBytes(Buffer data, ElementType type, ReduceOp op, RootedTree tree) {
        return TreeReduce.segmentBytes(data.length(), settings.pipeline().segmentBytes(data.length(), tree.depth()), type, op);
    }

    private Future<List<Buffer>> gatherToAll(Exchange exchange, RootedTree tree, Buffer data) {
        return new TreeGather(exchange, tree, 0).run(data)
                .compose(blocks -> broadcast(exchange, tree, 1, exchange.rank() == 0 ? blocks.encode() : null))
                .map(encoded -> inRankOrder(RankBlocks.decode(encoded)));
    }

    private static List<Buffer> blocksOf(Buffer data, int bytesPerRank, int ranks) {
        if (bytesPerRank < 0 || data.length() != (long) bytesPerRank * ranks) {
            throw new IllegalArgumentException(data.length() + " bytes cannot be cut into " + ranks + " blocks of "
                    + bytesPerRank + " bytes");
        }
        List<Buffer> blocks = new ArrayList<>(ranks);
        for (int rank = 0; rank < ranks; rank++) {
            blocks.add(data.getBuffer(rank * bytesPerRank, (rank + 1) * bytesPerRank));
        }
        return blocks;
    }

    private List<Buffer> split(Buffer all, int[] counts, ElementType type) {
        if (counts.length != size()) {
            throw new IllegalArgumentException("reduce_scatter needs one count per rank (" + size() + "), got " + counts.length);
        }
        List<Buffer> blocks = new ArrayList<>(counts.length);
        int offset = 0;
        for (int count : counts) {
            int bytes = count * type.size();
            if (count < 0 || offset + bytes > all.length()) {
                throw new IllegalArgumentException("reduce_scatter counts exceed the " + type.elementCount(all.length())
                        + " reduced elements");
            }
            blocks.add(all.getBuffer(offset, offset + bytes));
            offset += bytes;
        }
        return blocks;
    }

    private List<Buffer> inRankOrder(RankBlocks blocks) {
        return blocks.inRankOrder(size());
    }

    private static Buffer concatenate(List<Buffer> blocks, int expectedLength, Operation operation) {
        Buffer all = Buffer.buffer(blocks.size() * expectedLength);
        for (int rank = 0; rank < blocks.size(); rank++) {
            if (blocks.get(rank).length() != expectedLength) {
                throw new IllegalArgumentException(operation.displayName() + ": rank " + rank + " contributed "
                        + blocks.get(rank).length() + " bytes where this member contributed " + expectedLength
                        + "; use the v variant for blocks of different lengths");
            }
            all.appendBuffer(blocks.get(rank));
        }
        return all;
    }
}
