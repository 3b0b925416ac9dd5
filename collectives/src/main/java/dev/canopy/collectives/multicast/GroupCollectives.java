package dev.canopy.collectives.multicast;

import dev.canopy.collectives.CollectiveMismatchException;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.data.MalformedMessageException;
import dev.canopy.collectives.data.ValueCodec;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.transport.emulation.NanoClock;
import dev.canopy.multicast.groups.CommunicatorGroups;
import dev.canopy.multicast.groups.GroupAllocator;
import dev.canopy.multicast.groups.GroupLease;
import dev.canopy.multicast.groups.GroupPolicy;
import dev.canopy.multicast.groups.ManagementTimes;
import dev.canopy.multicast.reliable.MulticastOptions;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One-to-many collectives over multicast groups managed by a policy (design note group-management.md, issue 14),
 * for the members of one communicator that can all multicast to each other (one LAN or cluster):
 *
 * <ul>
 *   <li>{@code static}: the communicator's one group, leased through ZooKeeper when this object is opened and
 *       released with it ({@link #close}); a one-to-many operation multicasts the targets' pieces to every
 *       member, and the others discard them.</li>
 *   <li>{@code dynamic}: per operation, the root leases a temporary group, announces it with the target set on
 *       the static group, the targets look it up and join (each says READY), the data moves, the targets say
 *       DONE, and the group is dropped and released.</li>
 *   <li>{@code persistent}: the same set-up once, at {@link #scatterInit}, {@link #scattervInit} or
 *       {@link #bcastInit}; each
 *       {@link GroupRequest#start} is one multicast on the request's group; {@link GroupRequest#close} drops
 *       it. {@link #allgatherInit} uses the static group, its sizes agreed once.</li>
 *   <li>{@code tree}: no group: the root sends each target its piece point-to-point.</li>
 *   <li>{@code auto}: the cheapest for the call by the {@link PolicyCostModel} that {@link #open} measured on this
 *       deployment.</li>
 * </ul>
 *
 * Every operation is collective over the communicator: every member calls it, in the same order, with the same
 * root, targets, sizes and policy (only the root's data differs); the root is never a target. Futures complete on
 * the communicator's context; a target gets its piece, every other member an empty {@code Optional}. What group
 * management cost is in {@link #managementTimes()}.
 */
public final class GroupCollectives implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCollectives.class);

    /** The static group's instance on the communicator's {@link GroupLinks}; target groups take 2 and up. */
    static final int STATIC_INSTANCE = 1;
    /** Point-to-point words of an operation (READY, DONE, PIECE): one tag per operation, above the collectives' tags. */
    private static final int CONTROL_TAGS = 0x5000_0000;
    private static final int CONTROL_TAG_MASK = 0x0FFF_FFFF;
    static final int CALIBRATION_SMALL_BYTES = 16;
    static final int CALIBRATION_LARGE_BYTES = 16_384;
    static final int CALIBRATION_RUNS = 5;
    /** Untimed runs of each step first: the first runs of a fresh JVM are the JIT's, not the policy's. */
    static final int CALIBRATION_WARMUP = 2;

    private final Collectives collectives;
    private final Communicator communicator;
    private final Context context;
    private final CommunicatorGroups groups;
    private final GroupEndpoints endpoints;
    private final MulticastOptions options;
    private final GroupPolicy defaultPolicy;
    private final GroupLinks links; // context only
    private GroupMember whole; // the static group; context only
    private final Set<GroupMember> requestGroups = new HashSet<>(); // persistent ones; context only
    private PolicyCostModel costs; // set at open, the same on every member
    private long operations; // context only

    private GroupCollectives(Collectives collectives, GroupAllocator allocator, GroupEndpoints endpoints,
            MulticastOptions options, GroupPolicy defaultPolicy, ManagementTimes times) {
        this.collectives = collectives;
        this.communicator = collectives.communicator();
        this.context = communicator.context();
        this.groups = new CommunicatorGroups(allocator, communicator.contextId(), NanoClock.SYSTEM, times);
        this.endpoints = endpoints;
        this.options = options;
        this.defaultPolicy = defaultPolicy;
        this.links = new GroupLinks(communicator);
    }

    /**
     * Opens the communicator's static group (leased through {@code allocator}, this process's ZooKeeper session),
     * waits until every member joined it, and measures what each policy costs here for {@code auto}
     * ({@link PolicyCostModel}; rank 0 measures, every member gets its numbers). Collective.
     *
     * @param defaultPolicy the policy of calls that name none ({@code auto} unless the program knows better)
     * @param times         where the management times go (one per process, or per communicator)
     */
    public static Future<GroupCollectives> open(Collectives collectives, GroupAllocator allocator,
            GroupEndpoints endpoints, MulticastOptions options, GroupPolicy defaultPolicy, ManagementTimes times) {
        if (defaultPolicy == GroupPolicy.PERSISTENT) {
            throw new IllegalArgumentException("persistent is a kind of request (scatterInit, bcastInit, allgatherInit),"
                    + " not a default for single calls; give static, dynamic, tree or auto");
        }
        Communicator communicator = collectives.communicator();
        Promise<GroupCollectives> opened = Promise.promise();
        communicator.context().runOnContext(ignored -> {
            GroupCollectives members = new GroupCollectives(collectives, allocator, endpoints, options, defaultPolicy,
                    times);
            members.here(members.groups.communicatorGroup())
                    .compose(lease -> GroupMember.join(communicator, STATIC_INSTANCE, everyone(communicator.size()),
                            lease, endpoints.open(communicator), members.links, options))
                    .compose(member -> {
                        members.whole = member;
                        return collectives.barrier();
                    })
                    .compose(joined -> members.calibrate())
                    .map(model -> {
                        members.costs = model;
                        return members;
                    })
                    .onComplete(opened);
        });
        return opened.future();
    }

    /** {@code bytes} to every target from {@code root} ({@code data} there), by {@code policy}. */
    public Future<Optional<Buffer>> bcast(int root, int[] targets, int bytes, Buffer data, GroupPolicy policy) {
        checkTargets(root, targets);
        if (communicator.rank() == root && (data == null || data.length() != bytes)) {
            throw new IllegalArgumentException("bcast to targets: the root gives " + (data == null ? "no data" : data.length()
                    + " bytes") + ", announced as " + bytes);
        }
        return call(operation -> oneToMany(operation, root, targets, resolve(policy, targets.length, bytes),
                communicator.rank() == root ? List.of(data) : null));
    }

    /**
     * {@code bytesPerTarget} bytes to each target from {@code root}: {@code data} at the root holds the targets'
     * pieces back to back, in the order of {@code targets}.
     */
    public Future<Optional<Buffer>> scatter(int root, int[] targets, int bytesPerTarget, Buffer data, GroupPolicy policy) {
        checkTargets(root, targets);
        List<Buffer> pieces = null;
        if (communicator.rank() == root) {
            if (data == null || data.length() != (long) bytesPerTarget * targets.length) {
                throw new IllegalArgumentException("scatter to " + targets.length + " targets of " + bytesPerTarget
                        + " bytes each needs " + (long) bytesPerTarget * targets.length + " bytes at the root, got "
                        + (data == null ? "none" : data.length()));
            }
            pieces = new ArrayList<>();
            for (int i = 0; i < targets.length; i++) {
                pieces.add(data.getBuffer(i * bytesPerTarget, (i + 1) * bytesPerTarget));
            }
        }
        List<Buffer> atRoot = pieces;
        return call(operation -> oneToMany(operation, root, targets, resolve(policy, targets.length, bytesPerTarget),
                atRoot));
    }

    /**
     * Pieces of any lengths to the targets ({@code pieces} at the root, one per target): the counts go first, on
     * the static group (every member then knows the sizes, and {@code auto} chooses alike everywhere), then the
     * data by {@code policy}: two multicasts where the policy multicasts.
     */
    public Future<Optional<Buffer>> scatterv(int root, int[] targets, List<Buffer> pieces, GroupPolicy policy) {
        checkTargets(root, targets);
        if (communicator.rank() == root && (pieces == null || pieces.size() != targets.length)) {
            throw new IllegalArgumentException("scatterv to " + targets.length + " targets needs one piece per target"
                    + " at the root, got " + (pieces == null ? "none" : pieces.size()));
        }
        return call(operation -> counts(operation, root, targets, pieces).compose(counts -> {
            long largest = Arrays.stream(counts).max().orElse(0);
            return oneToMany(operation, root, targets, resolve(policy, targets.length, largest), pieces);
        }));
    }

    /** Every member's {@code data} (the same length everywhere) to every member, by rank; see {@link #allgatherInit}. */
    public Future<List<Buffer>> allgather(Buffer data, GroupPolicy policy) {
        GroupPolicy chosen = resolveAllgather(policy, data.length());
        return call(operation -> allgatherOn(operation, chosen, data));
    }

    /**
     * A persistent one-to-many scatter of {@code bytesPerTarget} to each target: the group of the root and the
     * targets is set up now (leased, announced, joined), and each {@link GroupRequest#start} is one multicast of the
     * targets' pieces. {@code policy}: {@code persistent}, {@code tree} (each start point-to-point), or {@code auto}
     * (persistent unless the model finds the point-to-point sends cheaper at this size).
     */
    public Future<GroupRequest> scatterInit(int root, int[] targets, int bytesPerTarget, GroupPolicy policy) {
        checkTargets(root, targets);
        if (bytesPerTarget < 0) {
            throw new IllegalArgumentException("scatterInit of " + bytesPerTarget + " bytes per target");
        }
        int[] counts = new int[targets.length];
        Arrays.fill(counts, bytesPerTarget);
        return init(root, targets, counts, false, policy);
    }

    /**
     * A persistent one-to-many scatterv: {@code counts} (one per target) are fixed here, once, so each start is one
     * multicast of the data, not two; as {@link #scatterInit}.
     */
    public Future<GroupRequest> scattervInit(int root, int[] targets, int[] counts, GroupPolicy policy) {
        checkTargets(root, targets);
        if (counts == null || counts.length != targets.length || Arrays.stream(counts).anyMatch(count -> count < 0)) {
            throw new IllegalArgumentException("scattervInit needs one count >= 0 per target (" + targets.length
                    + "), got " + Arrays.toString(counts));
        }
        return init(root, targets, counts.clone(), false, policy);
    }

    /** A persistent one-to-many bcast of {@code bytes}; as {@link #scatterInit}. */
    public Future<GroupRequest> bcastInit(int root, int[] targets, int bytes, GroupPolicy policy) {
        checkTargets(root, targets);
        if (bytes < 0) {
            throw new IllegalArgumentException("bcastInit of " + bytes + " bytes");
        }
        return init(root, targets, new int[] {bytes}, true, policy);
    }

    /**
     * A persistent allgather of {@code bytesPerRank} from every member: the sizes are agreed now, and each start
     * is one multicast per member on the static group ({@code static}/{@code persistent}), or the point-to-point
     * allgather ({@code tree}); {@code auto} asks the model once, here.
     */
    public Future<AllgatherRequest> allgatherInit(int bytesPerRank, GroupPolicy policy) {
        if (bytesPerRank < 0) {
            throw new IllegalArgumentException("allgatherInit of " + bytesPerRank + " bytes per rank");
        }
        GroupPolicy chosen = resolveAllgather(policy == GroupPolicy.PERSISTENT ? GroupPolicy.STATIC : policy,
                bytesPerRank);
        return collectives.allgatherv(Buffer.buffer().appendInt(bytesPerRank)).map(all -> {
            for (int rank = 0; rank < all.size(); rank++) {
                Buffer theirs = all.get(rank);
                if (theirs.length() != 4 || theirs.getInt(0) != bytesPerRank) {
                    throw new CollectiveMismatchException("allgatherInit: rank " + rank
                            + " called it with " + (theirs.length() == 4 ? theirs.getInt(0) + " bytes per rank"
                            : "a malformed size") + ", this rank (" + communicator.rank() + ") with " + bytesPerRank);
                }
            }
            return new AllgatherRequest(this, chosen, bytesPerRank);
        });
    }

    /** What creating and destroying groups cost at this member so far, per policy. */
    public ManagementTimes managementTimes() {
        return groups.times();
    }

    /** The costs {@code auto} chooses by, measured at open. */
    public PolicyCostModel costModel() {
        return costs;
    }

    public GroupPolicy defaultPolicy() {
        return defaultPolicy;
    }

    public Communicator communicator() {
        return communicator;
    }

    /** The communicator's collectives (its barrier, say), sharing its sequence with the groups' own set-up steps. */
    public Collectives collectives() {
        return collectives;
    }

    /** Leaves every group and releases the static group's lease (and any target group still open). */
    @Override
    public void close() {
        closeAsync();
    }

    /** {@link #close}, completing once the leases are released. */
    public Future<Void> closeAsync() {
        Promise<Void> closed = Promise.promise();
        context.runOnContext(ignored -> {
            if (whole != null) {
                whole.close();
                whole = null;
            }
            // Requests not closed by the program: leave their groups too (the leases go with groups.close()).
            requestGroups.forEach(GroupMember::close);
            requestGroups.clear();
            links.close();
            here(groups.close()).onComplete(closed);
        });
        return closed.future();
    }

    // ---- the operations, on the context ----

    /** Runs {@code body} on the context with the next operation number (the same on every member). */
    <T> Future<T> call(LongFunction<Future<T>> body) {
        Promise<T> result = Promise.promise();
        context.runOnContext(ignored -> {
            long operation = ++operations;
            try {
                body.apply(operation).onComplete(result);
            } catch (RuntimeException e) {
                result.fail(e);
            }
        });
        return result.future();
    }

    Future<Optional<Buffer>> oneToMany(long operation, int root, int[] targets, GroupPolicy policy, List<Buffer> pieces) {
        if (whole == null) {
            return Future.failedFuture(new IllegalStateException("the multicast groups of this communicator are closed"));
        }
        return switch (policy) {
            case STATIC -> staticOneToMany(operation, root, targets, pieces);
            case DYNAMIC -> dynamicOneToMany(operation, root, targets, pieces);
            case TREE -> treeOneToMany(operation, root, targets, pieces);
            case PERSISTENT, AUTO -> Future.failedFuture(new IllegalArgumentException(policy.configName()
                    + " is not a policy of a single call"));
        };
    }

    /** The targets' pieces in one multicast to every member of the communicator; the others discard them. */
    private Future<Optional<Buffer>> staticOneToMany(long operation, int root, int[] targets, List<Buffer> pieces) {
        if (communicator.rank() == root) {
            return whole.broadcast(GroupMessage.encode(GroupMessage.DATA, operation, targets, pieces))
                    .map(sent -> Optional.empty());
        }
        return whole.receive(root).map(message -> pieceFor(GroupMessage.decode(message, GroupMessage.DATA, operation,
                targets, communicator.size())));
    }

    private Future<Optional<Buffer>> dynamicOneToMany(long operation, int root, int[] targets, List<Buffer> pieces) {
        int me = communicator.rank();
        int[] ranks = withRoot(root, targets);
        int instance = instanceOf(operation);
        if (me == root) {
            return here(groups.createTargetGroup(GroupPolicy.DYNAMIC, operation))
                    .compose(lease -> whole.broadcast(GroupMessage.encode(GroupMessage.ANNOUNCE, operation, targets,
                                    List.of()))
                            .compose(announced -> GroupMember.join(communicator, instance, ranks, lease,
                                    endpoints.open(communicator), links, options))
                            .compose(member -> words(operation, targets, GroupMessage.READY)
                                    .compose(ready -> member.broadcast(GroupMessage.encode(GroupMessage.DATA, operation,
                                            targets, pieces)))
                                    .compose(sent -> words(operation, targets, GroupMessage.DONE))
                                    .eventually(() -> {
                                        member.close();
                                        return Future.succeededFuture();
                                    }))
                            .eventually(() -> here(groups.drop(lease))))
                    .map(done -> Optional.empty());
        }
        return whole.receive(root).compose(message -> {
            GroupMessage.decode(message, GroupMessage.ANNOUNCE, operation, targets, communicator.size());
            if (Arrays.binarySearch(targets, me) < 0) {
                return Future.succeededFuture(Optional.empty());
            }
            return here(groups.joinTargetGroup(GroupPolicy.DYNAMIC, operation)).compose(lease ->
                    GroupMember.join(communicator, instance, ranks, lease, endpoints.open(communicator), links, options)
                            .compose(member -> send(root, operation, GroupMessage.word(GroupMessage.READY, operation))
                                    .compose(ready -> member.receive(root))
                                    .map(data -> pieceFor(GroupMessage.decode(data, GroupMessage.DATA, operation,
                                            targets, communicator.size())))
                                    .compose(piece -> send(root, operation, GroupMessage.word(GroupMessage.DONE,
                                            operation)).map(done -> piece))
                                    .eventually(() -> {
                                        member.close();
                                        return Future.succeededFuture();
                                    }))
                            .eventually(() -> here(groups.drop(lease))));
        });
    }

    private Future<Optional<Buffer>> treeOneToMany(long operation, int root, int[] targets, List<Buffer> pieces) {
        int me = communicator.rank();
        if (me == root) {
            List<Future<Void>> sends = new ArrayList<>();
            for (int i = 0; i < targets.length; i++) {
                Buffer piece = pieces.size() == 1 ? pieces.get(0) : pieces.get(i);
                sends.add(send(targets[i], operation, GroupMessage.encode(GroupMessage.PIECE, operation, new int[0],
                        List.of(piece))));
            }
            return Future.all(sends).map(sent -> Optional.empty());
        }
        if (Arrays.binarySearch(targets, me) < 0) {
            return Future.succeededFuture(Optional.empty());
        }
        return communicator.collectiveChannel().receive(root, controlTag(operation)).map(message -> Optional.of(
                GroupMessage.decode(message.payload(), GroupMessage.PIECE, operation, new int[0], communicator.size())
                        .pieces().get(0)));
    }

    /** scatterv's first multicast: the root's counts, on the static group, to every member. */
    private Future<int[]> counts(long operation, int root, int[] targets, List<Buffer> pieces) {
        if (communicator.rank() == root) {
            int[] counts = pieces.stream().mapToInt(Buffer::length).toArray();
            return whole.broadcast(GroupMessage.encode(GroupMessage.DATA, operation, targets,
                    List.of(ValueCodec.encode(counts)))).map(sent -> counts);
        }
        return whole.receive(root).map(message -> {
            Buffer counts = GroupMessage.decode(message, GroupMessage.DATA, operation, targets, communicator.size())
                    .pieces().get(0);
            if (counts.length() != 4 * targets.length) {
                throw new MalformedMessageException("scatterv counts of operation " + operation + ": " + counts.length()
                        + " bytes for " + targets.length + " targets");
            }
            int[] values = ValueCodec.ints(counts);
            if (Arrays.stream(values).anyMatch(count -> count < 0)) {
                throw new MalformedMessageException("scatterv counts of operation " + operation + " hold a negative count: "
                        + Arrays.toString(values));
            }
            return values;
        });
    }

    Future<List<Buffer>> allgatherOn(long operation, GroupPolicy policy, Buffer data) {
        if (policy == GroupPolicy.TREE) {
            return collectives.allgatherv(data).map(all -> {
                all.forEach(piece -> checkLength(piece, data.length(), operation));
                return all;
            });
        }
        int me = communicator.rank();
        List<Future<Buffer>> received = new ArrayList<>();
        for (int rank = 0; rank < communicator.size(); rank++) {
            int from = rank;
            received.add(rank == me ? whole.broadcast(GroupMessage.encode(GroupMessage.DATA, operation, new int[0],
                    List.of(data))).map(sent -> data)
                    : whole.receive(rank).map(message -> checkLength(GroupMessage.decode(message, GroupMessage.DATA,
                            operation, new int[0], communicator.size()).pieces().get(0), data.length(), operation)));
        }
        return Future.all(received).map(all -> {
            List<Buffer> pieces = new ArrayList<>();
            received.forEach(piece -> pieces.add(piece.result()));
            return Collections.unmodifiableList(pieces);
        });
    }

    private static Buffer checkLength(Buffer piece, int expected, long operation) {
        if (piece.length() != expected) {
            throw new MalformedMessageException("allgather of operation " + operation + ": a piece of " + piece.length()
                    + " bytes, every member gives " + expected);
        }
        return piece;
    }

    // ---- persistent requests ----

    private Future<GroupRequest> init(int root, int[] targets, int[] counts, boolean shared, GroupPolicy policy) {
        long largest = Arrays.stream(counts).max().orElse(0);
        GroupPolicy chosen = switch (policy) {
            case PERSISTENT, TREE -> policy;
            // A start costs no more than a static call (no management either, and a smaller group).
            case AUTO -> costs.micros(GroupPolicy.STATIC, targets.length, largest)
                    <= costs.micros(GroupPolicy.TREE, targets.length, largest) ? GroupPolicy.PERSISTENT : GroupPolicy.TREE;
            case STATIC, DYNAMIC -> throw new IllegalArgumentException("a persistent request is persistent, tree or auto,"
                    + " not " + policy.configName());
        };
        return call(operation -> {
            if (chosen == GroupPolicy.TREE) {
                return Future.succeededFuture(GroupRequest.oneToMany(this, operation, root, targets, counts, shared,
                        GroupPolicy.TREE, Optional.empty()));
            }
            return persistentGroup(operation, root, targets).map(member -> GroupRequest.oneToMany(this, operation, root,
                    targets, counts, shared, GroupPolicy.PERSISTENT, member));
        });
    }

    /** Sets up a request's group (as a dynamic operation's, once); empty at members outside it. */
    private Future<Optional<GroupMember>> persistentGroup(long operation, int root, int[] targets) {
        int me = communicator.rank();
        int[] ranks = withRoot(root, targets);
        int instance = instanceOf(operation);
        if (me == root) {
            return here(groups.createTargetGroup(GroupPolicy.PERSISTENT, operation))
                    .compose(lease -> whole.broadcast(GroupMessage.encode(GroupMessage.ANNOUNCE, operation, targets,
                                    List.of()))
                            .compose(announced -> GroupMember.join(communicator, instance, ranks, lease,
                                    endpoints.open(communicator), links, options))
                            .compose(member -> words(operation, targets, GroupMessage.READY).map(ready -> {
                                requestGroups.add(member);
                                return Optional.of(member);
                            }))
                            .onFailure(e -> here(groups.drop(lease))));
        }
        return whole.receive(root).compose(message -> {
            GroupMessage.decode(message, GroupMessage.ANNOUNCE, operation, targets, communicator.size());
            if (Arrays.binarySearch(targets, me) < 0) {
                return Future.succeededFuture(Optional.empty());
            }
            return here(groups.joinTargetGroup(GroupPolicy.PERSISTENT, operation)).compose(lease ->
                    GroupMember.join(communicator, instance, ranks, lease, endpoints.open(communicator), links, options)
                            .compose(member -> send(root, operation, GroupMessage.word(GroupMessage.READY, operation))
                                    .map(ready -> {
                                        requestGroups.add(member);
                                        return Optional.of(member);
                                    })));
        });
    }

    /** Ends a persistent request's group: targets say DONE, the root waits for them, everyone leaves and drops. */
    Future<Void> closePersistent(long operation, int root, int[] targets, GroupMember member) {
        return onContext(() -> {
            Future<Void> agreed = communicator.rank() == root ? words(operation, targets, GroupMessage.DONE)
                    : send(root, operation, GroupMessage.word(GroupMessage.DONE, operation));
            return agreed.eventually(() -> {
                requestGroups.remove(member);
                member.close();
                return here(groups.drop(member.lease()));
            });
        });
    }

    /** Runs {@code body} on the context (for requests). */
    <T> Future<T> onContext(Supplier<Future<T>> body) {
        Promise<T> result = Promise.promise();
        context.runOnContext(ignored -> {
            try {
                body.get().onComplete(result);
            } catch (RuntimeException e) {
                result.fail(e);
            }
        });
        return result.future();
    }

    Future<Void> sendPiece(int target, long operation, Buffer piece) {
        return send(target, operation, GroupMessage.encode(GroupMessage.PIECE, operation, new int[0], List.of(piece)));
    }

    Future<Buffer> receivePiece(int root, long operation) {
        return communicator.collectiveChannel().receive(root, controlTag(operation)).map(message ->
                GroupMessage.decode(message.payload(), GroupMessage.PIECE, operation, new int[0], communicator.size())
                        .pieces().get(0));
    }

    // ---- auto: measuring the policies ----

    /**
     * Rank 0 runs one-to-k scatters (k = min(5, n - 1)) by each policy at two sizes, each followed by a barrier, and
     * a barrier alone after each ({@link #CALIBRATION_WARMUP} untimed rounds, then {@link #CALIBRATION_RUNS} timed); the fastest
     * run of each less the fastest barrier gives the {@link PolicyCostModel}, which rank 0 then bcasts. The fastest,
     * not the median: on a shared machine a run can only be slowed down by others, never sped up.
     * Every member takes part in every step.
     */
    private Future<PolicyCostModel> calibrate() {
        int k = Math.min(5, communicator.size() - 1);
        if (k < 1) {
            return Future.succeededFuture(new PolicyCostModel(0, Map.of(GroupPolicy.STATIC,
                    new PolicyCostModel.Line(0, 0), GroupPolicy.DYNAMIC, new PolicyCostModel.Line(0, 0),
                    GroupPolicy.TREE, new PolicyCostModel.Line(0, 0))));
        }
        int[] targets = IntStream.rangeClosed(1, k).toArray();
        int steps = PolicyCostModel.PER_CALL.length * 2;
        long[][] samples = new long[steps][CALIBRATION_RUNS];
        // A barrier alone after every step, so that the barrier subtracted ran in the same conditions as the steps.
        long[] barrier = new long[steps * CALIBRATION_RUNS];
        Future<Void> chain = Future.succeededFuture();
        for (int run = -CALIBRATION_WARMUP; run < CALIBRATION_RUNS; run++) {
            for (int step = 0; step < steps; step++) {
                GroupPolicy policy = PolicyCostModel.PER_CALL[step / 2];
                int bytes = step % 2 == 0 ? CALIBRATION_SMALL_BYTES : CALIBRATION_LARGE_BYTES;
                int index = run;
                int which = step;
                chain = chain.compose(ignored -> timed(() -> {
                    List<Buffer> pieces = communicator.rank() == 0
                            ? Collections.nCopies(k, Buffer.buffer(new byte[bytes])) : null;
                    return call(operation -> oneToMany(operation, 0, targets, policy, pieces))
                            .compose(done -> collectives.barrier());
                })).compose(nanos -> timed(collectives::barrier).map(barrierNanos -> {
                    if (index >= 0) {
                        samples[which][index] = nanos;
                        barrier[which * CALIBRATION_RUNS + index] = barrierNanos;
                    }
                    return null;
                }));
            }
        }
        return chain.compose(measured -> {
            Buffer model = null;
            if (communicator.rank() == 0) {
                double barrierMicros = fastest(barrier) / 1e3;
                Map<GroupPolicy, PolicyCostModel.Line> lines = new EnumMap<>(GroupPolicy.class);
                for (int i = 0; i < PolicyCostModel.PER_CALL.length; i++) {
                    double small = Math.max(0, fastest(samples[2 * i]) / 1e3 - barrierMicros);
                    double large = Math.max(0, fastest(samples[2 * i + 1]) / 1e3 - barrierMicros);
                    lines.put(PolicyCostModel.PER_CALL[i], PolicyCostModel.through((long) k * CALIBRATION_SMALL_BYTES,
                            small, (long) k * CALIBRATION_LARGE_BYTES, large));
                }
                PolicyCostModel measuredModel = new PolicyCostModel(k, lines);
                LOG.info("groups of context {}: barrier {} us, one-to-{} fastest runs (ns) {}; {}", communicator.contextId(),
                        Math.round(barrierMicros), k, Arrays.stream(samples).map(GroupCollectives::fastest).toList(),
                        measuredModel);
                model = ValueCodec.encode(measuredModel.encode());
            }
            return collectives.bcast(model, 0).map(bytes -> PolicyCostModel.decode(ValueCodec.doubles(bytes)));
        });
    }

    private <T> Future<Long> timed(Supplier<Future<T>> step) {
        long start = System.nanoTime();
        return step.get().map(done -> System.nanoTime() - start);
    }

    private static long fastest(long[] values) {
        return Arrays.stream(values).min().orElse(0);
    }

    // ---- helpers ----

    private GroupPolicy resolve(GroupPolicy policy, int targets, long bytesPerTarget) {
        GroupPolicy asked = policy == null ? defaultPolicy : policy;
        if (asked == GroupPolicy.PERSISTENT) {
            throw new IllegalArgumentException("persistent is for requests: use scatterInit or bcastInit, then start()");
        }
        return asked == GroupPolicy.AUTO ? costs.choose(targets, bytesPerTarget) : asked;
    }

    /** allgather: the static group (every member multicasts once) or the point-to-point allgather. */
    private GroupPolicy resolveAllgather(GroupPolicy policy, long bytesPerRank) {
        GroupPolicy asked = policy == null ? defaultPolicy : policy;
        return switch (asked) {
            case STATIC, TREE -> asked;
            // n one-to-all multicasts against the tree's allgather, which the model's one-to-(n-1) tree sends stand for.
            case AUTO -> costs.micros(GroupPolicy.STATIC, communicator.size() - 1, bytesPerRank)
                    <= costs.micros(GroupPolicy.TREE, communicator.size() - 1, bytesPerRank)
                    ? GroupPolicy.STATIC : GroupPolicy.TREE;
            case DYNAMIC, PERSISTENT -> throw new IllegalArgumentException("allgather involves every member: static,"
                    + " tree or auto (persistent: allgatherInit), not " + asked.configName());
        };
    }

    private void checkTargets(int root, int[] targets) {
        int size = communicator.size();
        if (root < 0 || root >= size) {
            throw new IllegalArgumentException("root " + root + " is not a rank of this " + size + "-member communicator");
        }
        if (targets == null || targets.length == 0) {
            throw new IllegalArgumentException("a one-to-many operation needs at least one target");
        }
        for (int i = 0; i < targets.length; i++) {
            if (targets[i] < 0 || targets[i] >= size || targets[i] == root || (i > 0 && targets[i] <= targets[i - 1])) {
                throw new IllegalArgumentException("targets " + Arrays.toString(targets) + " must be distinct ranks of"
                        + " the " + size + "-member communicator, ascending, without the root " + root);
            }
        }
    }

    private Optional<Buffer> pieceFor(GroupMessage.Decoded message) {
        return Arrays.binarySearch(message.targets(), communicator.rank()) >= 0
                ? Optional.of(message.pieceOf(communicator.rank())) : Optional.empty();
    }

    /** Waits for the word {@code kind} of {@code operation} from every target. */
    private Future<Void> words(long operation, int[] targets, byte kind) {
        List<Future<Void>> words = new ArrayList<>();
        for (int target : targets) {
            words.add(communicator.collectiveChannel().receive(target, controlTag(operation)).map(message -> {
                GroupMessage.decode(message.payload(), kind, operation, new int[0], communicator.size());
                return null;
            }));
        }
        return Future.all(words).mapEmpty();
    }

    private Future<Void> send(int destination, long operation, Buffer message) {
        return communicator.collectiveChannel().send(destination, controlTag(operation), message);
    }

    static int controlTag(long operation) {
        return CONTROL_TAGS | (int) (operation & CONTROL_TAG_MASK);
    }

    static int instanceOf(long operation) {
        return 2 + (int) (operation & 0x3FFF_FFFF);
    }

    private static int[] withRoot(int root, int[] targets) {
        int[] ranks = Arrays.copyOf(targets, targets.length + 1);
        ranks[targets.length] = root;
        Arrays.sort(ranks);
        return ranks;
    }

    private static int[] everyone(int size) {
        return IntStream.range(0, size).toArray();
    }

    /** {@code elsewhere} (completing on the allocator's context) continued on this communicator's context. */
    private <T> Future<T> here(Future<T> elsewhere) {
        Promise<T> result = Promise.promise();
        elsewhere.onComplete(outcome -> context.runOnContext(ignored -> result.handle(outcome)));
        return result.future();
    }
}
