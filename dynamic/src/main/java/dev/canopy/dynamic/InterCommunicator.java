package dev.canopy.dynamic;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.reduce.ReduceOp;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.Message;
import dev.canopy.core.internal.security.SecurityCounters;
import dev.canopy.core.node.Member;
import dev.canopy.core.transport.TransportSecurity;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An MPI inter-communicator: this process's group (the local group) and another (the remote group), made by
 * {@link DynamicProcesses#accept} / {@link DynamicProcesses#connect}. Point-to-point messages go to and come
 * from ranks of the remote group; collectives run between the groups with MPI's semantics (see
 * {@link InterCollectives}); {@link #merge} gives one intra-communicator over both.
 *
 * <p>Every method may be called from any thread and returns at once; every future completes or fails within
 * {@link DynamicOptions#timeout()} (a {@link DynamicTimeoutException} names what waited). A member of either
 * group that fails (its process is killed, say) fails the operations that need it with a message naming it.
 * Collectives must be called in the same order by every member of both groups, as in MPI; several may be in
 * flight, and each starts on a member once the one before it has completed there.
 */
public final class InterCommunicator {

    /** The root argument of the root of a rooted collective, in its own group. */
    public static final int ROOT = -3;
    /** The root argument of the other members of the root's group: they take no part in the transfer. */
    public static final int PROC_NULL = -2;

    /** At debug: one line per merge and member, where its time went (the split, the merged group's plan). */
    private static final Logger MERGE_LOG = LoggerFactory.getLogger(InterCommunicator.class.getName() + ".merge");

    private enum State { OPEN, DISCONNECTING, CLOSED }

    private final Vertx vertx;
    private final DynamicOptions options;
    private final InterTable table;
    private final Leaders leaders;
    private final Communicator union;
    private final Bridge bridge;
    private final Collectives local;
    /**
     * The intra-group phases' collectives: over a copy of the local group's communicator, on the group's plan (on
     * binomial trees over ranks for {@link InterPhase#FLAT}).
     */
    private final Collectives phases;
    private final GridModel grid;
    private final InterCollectives collectives;
    /** The tag of the next collective on the channel between the groups: 0 is creation's. */
    private final AtomicInteger sequence = new AtomicInteger(LeaderSetup.SETUP_TAG + 1);
    private final Set<Future<?>> pending = ConcurrentHashMap.newKeySet();
    /**
     * The last collective started here. Each collective starts once the one before it has completed on this member:
     * its two intra-group phases (before and after the crossing) become ready at different times on different
     * members, so two collectives in flight at once could start their group collectives in different orders and
     * take each other's sequence numbers.
     */
    private final AtomicReference<Future<?>> lastCollective = new AtomicReference<>(Future.succeededFuture());
    private final AtomicReference<State> state = new AtomicReference<>(State.OPEN);

    InterCommunicator(Vertx vertx, DynamicOptions options, InterTable table, Leaders leaders, Communicator union,
            Bridge bridge, Collectives local, Collectives phases, GridModel grid) {
        this.vertx = vertx;
        this.options = options;
        this.table = table;
        this.leaders = leaders;
        this.union = union;
        this.bridge = bridge;
        this.local = local;
        this.phases = phases;
        this.grid = grid;
        // The flat phase is the seed's baseline: its intra-group phases know nothing of the sites either.
        this.collectives = new InterCollectives(table, leaders, union.collectiveChannel(),
                leaders.phase() == InterPhase.FLAT ? RankBinomialPlan.over(phases) : phases);
    }

    /** This process's rank in the local group. */
    public int rank() {
        return table.localRank();
    }

    /** The local group's size. */
    public int size() {
        return table.localSize();
    }

    public int remoteSize() {
        return table.remoteSize();
    }

    /** The remote group's member at {@code remoteRank}: its coordinates and the address of its inter-communicator transport. */
    public Member remoteMember(int remoteRank) {
        return table.group(table.mine().other()).members().get(remoteRank);
    }

    /** The remote group's id: its job and communicator, as its root announced it. */
    public String remoteGroupId() {
        return table.group(table.mine().other()).groupId();
    }

    /** How collectives cross between the groups. */
    public InterPhase interPhase() {
        return leaders.phase();
    }

    /** The local rank that crosses for non-rooted collectives (the lowest-latency pair's member in this group; 0 when flat). */
    public int leader() {
        return leaders.leader(table.mine());
    }

    /**
     * What this member's inter-communicator transport refused, by reason: connections that could not prove the
     * inter-communicator's key (HANDSHAKE_BAD_PROOF), frames claiming another member's rank (FRAME_WRONG_SOURCE),
     * a peer without TLS when this one runs it (TLS_PLAINTEXT_PEER), and the rest of docs/security.md's list.
     */
    public SecurityCounters securityCounters() {
        return bridge.securityCounters();
    }

    /** The key and job this member's connections prove (what every member of both groups holds). */
    TransportSecurity credential() {
        return bridge.security();
    }

    /** The local group's collectives, for the intra-group work a program does between inter-group steps. */
    public Collectives localCollectives() {
        return local;
    }

    /** Sends to rank {@code remoteRank} of the remote group; FIFO per (source, tag), as a communicator's sends. */
    public Future<Void> send(int remoteRank, int tag, Buffer payload) {
        return operation("send to remote rank " + remoteRank, () -> union.send(remoteUnionRank(remoteRank), tag, payload));
    }

    /**
     * Receives from rank {@code remoteRank} of the remote group ({@link Communicator#ANY_SOURCE} allowed); the
     * message's source is the remote rank.
     */
    public Future<Message> receive(int remoteRank, int tag) {
        return operation("receive from remote rank " + remoteRank, () -> {
            int source = remoteRank == Communicator.ANY_SOURCE ? Communicator.ANY_SOURCE : remoteUnionRank(remoteRank);
            return union.receive(source, tag)
                    .map(message -> new Message(table.remoteRankOf(message.source()), message.tag(), message.payload()));
        });
    }

    /** {@code root}: {@link #ROOT} at the root, {@link #PROC_NULL} at the rest of its group, the root's rank in the other group. */
    public Future<Buffer> bcast(Buffer data, int root) {
        return collective("bcast", tag -> collectives.bcast(data, root, tag));
    }

    /** The root's {@code data} holds {@code bytesPerRank} bytes for each rank of the other group, which gets its block. */
    public Future<Buffer> scatter(Buffer data, int bytesPerRank, int root) {
        return collective("scatter", tag -> collectives.scatter(data, bytesPerRank, root, tag));
    }

    /** The root gets the other group's {@code data} (all of one length) in its rank order; everyone else empty. */
    public Future<Optional<Buffer>> gather(Buffer data, int root) {
        return collective("gather", tag -> collectives.gather(data, root, tag));
    }

    /** The root gets {@code op} over the other group's {@code data}; everyone else empty. */
    public Future<Optional<Buffer>> reduce(Buffer data, ElementType type, ReduceOp op, int root) {
        return collective("reduce", tag -> collectives.reduce(data, type, op, root, tag));
    }

    /** Every member gets {@code op} over the other group's {@code data}. */
    public Future<Buffer> allreduce(Buffer data, ElementType type, ReduceOp op) {
        return collective("allreduce", tag -> collectives.allreduce(data, type, op, tag));
    }

    /** Every member gets the other group's {@code data} (all of one length) concatenated in its rank order. */
    public Future<Buffer> allgather(Buffer data) {
        return collective("allgather", tag -> collectives.allgather(data, tag));
    }

    /** Block j of {@code data} goes to remote rank j; the result holds each remote rank's block for this one. */
    public Future<Buffer> alltoall(Buffer data, int bytesPerRank) {
        return collective("alltoall", tag -> collectives.alltoall(data, bytesPerRank, tag));
    }

    /** Completes once every member of both groups has started it. */
    public Future<Void> barrier() {
        return collective("barrier", collectives::barrier);
    }

    /** A blocking view on arrays of {@code type}, for MPI-style code on plain threads. */
    public <A> BlockingInterCommunicator<A> blocking(ArrayType<A> type) {
        return new BlockingInterCommunicator<>(this, type);
    }

    /**
     * Collective over both groups: one intra-communicator over every member of both, the group that passes
     * {@link MergeOrder#LOW} first (the accepting group first when both pass the same), each group in its rank
     * order, with collectives on the topology plan of the level file over all of them.
     */
    public Future<Merged> merge(MergeOrder order) {
        int groupPosition = (order == MergeOrder.HIGH ? 2 : 0) + (table.mine() == Side.CONNECT ? 1 : 0);
        int key = groupPosition * GroupRecord.MAX_MEMBERS + table.localRank();
        StepLog steps = new StepLog();
        return operation("merge", () -> union.split(0, key).map(merged -> {
            steps.mark("split");
            Merged made = new Merged(merged, new Collectives(merged, ConfiguredPlans.of(merged.members(), grid),
                    local.settings()));
            steps.mark("planned");
            MERGE_LOG.debug("merge at rank {} of {}: {}", merged.rank(), merged.size(), steps);
            return made;
        }));
    }

    /**
     * Collective over the local group, as MPI's: waits for this member's pending operations to finish (or fail),
     * frees the intra-group phases' communicator with the group's other live members, then says goodbye to both
     * groups and frees the inter-communicator: later calls fail. Works after a member of either group died.
     */
    public Future<Void> disconnect() {
        if (!state.compareAndSet(State.OPEN, State.DISCONNECTING)) {
            return Future.succeededFuture();
        }
        List<Future<?>> waiting = new ArrayList<>(pending);
        return Future.join(waiting).transform(all -> {
            state.set(State.CLOSED);
            return Deadline.bound(vertx, phases.communicator().free(), options.timeout(), "disconnect");
        }).transform(freed -> bridge.close("the inter-communicator was disconnected"));
    }

    /** Frees the inter-communicator at once: pending operations fail, later calls fail. */
    public Future<Void> free() {
        state.set(State.CLOSED);
        phases.communicator().free();
        return bridge.close("the inter-communicator was freed");
    }

    private int remoteUnionRank(int remoteRank) {
        if (remoteRank < 0 || remoteRank >= table.remoteSize()) {
            throw new IllegalArgumentException("remote rank " + remoteRank + " is outside the remote group (0.."
                    + (table.remoteSize() - 1) + ")");
        }
        return table.unionOfRemote(remoteRank);
    }

    private <T> Future<T> collective(String what, IntFunction<Future<T>> body) {
        return operation(what, () -> {
            int tag = sequence.getAndIncrement();
            Promise<T> done = Promise.promise();
            Future<?> before = lastCollective.getAndSet(done.future());
            before.onComplete(previous -> {
                Future<T> started;
                try {
                    started = body.apply(tag);
                } catch (RuntimeException e) {
                    started = Future.failedFuture(e);
                }
                started.onComplete(done);
            });
            return done.future();
        });
    }

    private <T> Future<T> operation(String what, Supplier<Future<T>> body) {
        if (state.get() != State.OPEN) {
            return Future.failedFuture(new IllegalStateException(what + ": the inter-communicator with "
                    + remoteGroupId() + " was disconnected or freed"));
        }
        Future<T> started;
        try {
            started = body.get();
        } catch (RuntimeException e) {
            started = Future.failedFuture(e);
        }
        Future<T> bounded = Deadline.bound(vertx, started, options.timeout(), what + " on the inter-communicator with "
                + remoteGroupId());
        pending.add(bounded);
        bounded.onComplete(done -> pending.remove(bounded));
        return bounded;
    }

    /** The intra-communicator {@link #merge} made, and the collectives over it. */
    public record Merged(Communicator communicator, Collectives collectives) {
    }
}
