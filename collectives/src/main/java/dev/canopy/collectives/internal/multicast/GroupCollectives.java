package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.CollectiveMismatchException;
import dev.canopy.collectives.Collectives;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.multicast.internal.groups.CommunicatorGroups;
import dev.canopy.multicast.internal.groups.GroupAllocator;
import dev.canopy.multicast.internal.groups.GroupPolicy;
import dev.canopy.multicast.internal.groups.ManagementTimes;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;
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
 *       deployment ({@link PolicyCalibration}), refreshed from the real operations' times as they run
 *       ({@link AutoPolicy}).</li>
 * </ul>
 *
 * Every operation is collective over the communicator: every member calls it, in the same order, with the same
 * root, targets, sizes and policy (only the root's data differs); the root is never a target. Futures complete on
 * the communicator's context; a target gets its piece, every other member an empty {@code Optional}. What group
 * management cost is in {@link #managementTimes()}.
 *
 * <p>This class is the API and the order of operations; each policy is a class of its own ({@link StaticPolicy},
 * {@link DynamicPolicy} with the {@link TargetGroupExchange}, {@link TreePolicy}, {@link PersistentRequests},
 * {@link AutoPolicy}), sharing the communicator's {@link GroupScope}.
 */
public final class GroupCollectives implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCollectives.class);

    private final GroupScope scope;
    private final Communicator communicator;
    private final Collectives collectives;
    private final GroupPolicy defaultPolicy;
    private final StaticPolicy staticPolicy;
    private final DynamicPolicy dynamicPolicy;
    private final TreePolicy treePolicy;
    private final PersistentRequests requests;
    private final CallTimer timer;
    private volatile AutoPolicy auto; // set at open, the same model on every member
    private long operations; // context only

    private GroupCollectives(Collectives collectives, GroupAllocator allocator, GroupEndpoints endpoints,
            MulticastOptions options, GroupPolicy defaultPolicy, ManagementTimes times) {
        this.collectives = collectives;
        this.communicator = collectives.communicator();
        this.scope = new GroupScope(collectives, new CommunicatorGroups(allocator, communicator.contextId(),
                NanoClock.SYSTEM, times), endpoints, options);
        this.defaultPolicy = defaultPolicy;
        this.staticPolicy = new StaticPolicy(scope);
        TargetGroupExchange exchange = new TargetGroupExchange(scope);
        this.dynamicPolicy = new DynamicPolicy(scope, exchange);
        this.treePolicy = new TreePolicy(scope);
        this.requests = new PersistentRequests(scope, exchange);
        this.timer = new CallTimer(scope, NanoClock.SYSTEM);
    }

    /**
     * Opens the communicator's static group (leased through {@code allocator}, this process's ZooKeeper session),
     * waits until every member joined it, and measures what each policy costs here for {@code auto}
     * ({@link PolicyCalibration}; rank 0 measures, every member gets its numbers). Collective.
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
        Promise<GroupCollectives> opened = Promise.promise();
        collectives.communicator().context().runOnContext(ignored -> {
            GroupCollectives members = new GroupCollectives(collectives, allocator, endpoints, options, defaultPolicy,
                    times);
            members.scope.joinStaticGroup()
                    .compose(joined -> collectives.barrier())
                    .compose(joined -> new PolicyCalibration(members.scope, (policy, targets, pieces) ->
                            members.timed(0, targets, policy, pieces).map(micros -> micros.orElse(0.0))).measure())
                    .map(model -> {
                        members.auto = new AutoPolicy(model);
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
        return oneToManyCall(root, new CallShape(targets.length, bytes, true), targets, policy,
                communicator.rank() == root ? List.of(data) : null);
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
        return oneToManyCall(root, CallShape.scatter(targets.length, bytesPerTarget), targets, policy, pieces);
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
        GroupPolicy asked = single(policy);
        AutoPolicy.Ticket ticket = auto.next(collectives::allgatherv);
        return call(operation -> staticPolicy.counts(operation, root, targets, pieces).compose(counts -> {
            // The mean piece: targets x mean is what moves, by multicast or by the tree.
            long total = Arrays.stream(counts).asLongStream().sum();
            CallShape call = CallShape.scatter(targets.length, (total + targets.length - 1) / targets.length);
            return observed(ticket, asked, call, operation, root, targets, pieces);
        }));
    }

    /** Every member's {@code data} (the same length everywhere) to every member, by rank; see {@link #allgatherInit}. */
    public Future<List<Buffer>> allgather(Buffer data, GroupPolicy policy) {
        GroupPolicy asked = allgatherPolicy(policy);
        AutoPolicy.Ticket ticket = auto.next(collectives::allgatherv);
        return call(operation -> ticket.model().compose(model -> allgatherOn(operation,
                asked == GroupPolicy.AUTO ? model.chooseAllgather(communicator.size(), data.length()) : asked, data)));
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
        GroupPolicy asked = allgatherPolicy(policy == GroupPolicy.PERSISTENT ? GroupPolicy.STATIC : policy);
        Future<PolicyCostModel> model = auto.next(collectives::allgatherv).model();
        Future<List<Buffer>> sizes = collectives.allgatherv(Buffer.buffer().appendInt(bytesPerRank));
        return Future.all(model, sizes).map(both -> {
            List<Buffer> all = sizes.result();
            for (int rank = 0; rank < all.size(); rank++) {
                Buffer theirs = all.get(rank);
                if (theirs.length() != 4 || theirs.getInt(0) != bytesPerRank) {
                    throw new CollectiveMismatchException("allgatherInit: rank " + rank
                            + " called it with " + (theirs.length() == 4 ? theirs.getInt(0) + " bytes per rank"
                            : "a malformed size") + ", this rank (" + communicator.rank() + ") with " + bytesPerRank);
                }
            }
            return new AllgatherRequest(this, asked == GroupPolicy.AUTO
                    ? model.result().chooseAllgather(communicator.size(), bytesPerRank) : asked, bytesPerRank);
        });
    }

    /** What creating and destroying groups cost at this member so far, per policy. */
    public ManagementTimes managementTimes() {
        return scope.groups.times();
    }

    /** The costs {@code auto} chooses by: measured at open, refreshed from the operations' times since. */
    public PolicyCostModel costModel() {
        return auto.current();
    }

    /**
     * How often {@code auto} resolved a single call (bcast, scatter, scatterv) to each of static, dynamic and tree at
     * this member so far (the same at every member).
     */
    public Map<GroupPolicy, Long> autoChoices() {
        return auto.choices();
    }

    /** The costs measured at open ({@link PolicyCalibration}). */
    public PolicyCostModel calibratedCostModel() {
        return auto.calibrated();
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
        scope.context.runOnContext(ignored -> {
            scope.leave();
            // Requests not closed by the program: leave their groups too (the leases go with groups.close()).
            requests.leaveAll();
            scope.here(scope.groups.close()).onComplete(closed);
        });
        return closed.future();
    }


    // ---- the operations, on the context ----

    /** Runs {@code body} on the context with the next operation number (the same on every member). */
    <T> Future<T> call(LongFunction<Future<T>> body) {
        Promise<T> result = Promise.promise();
        scope.context.runOnContext(ignored -> {
            long operation = ++operations;
            try {
                body.apply(operation).onComplete(result);
            } catch (RuntimeException e) {
                result.fail(e);
            }
        });
        return result.future();
    }

    /** bcast and scatter: the policy resolved by the call's model, the call timed for {@code auto}. */
    private Future<Optional<Buffer>> oneToManyCall(int root, CallShape call, int[] targets, GroupPolicy policy,
            List<Buffer> pieces) {
        GroupPolicy asked = single(policy);
        AutoPolicy.Ticket ticket = auto.next(collectives::allgatherv);
        return call(operation -> observed(ticket, asked, call, operation, root, targets, pieces));
    }

    /**
     * Runs the one-to-many {@code operation} by {@code asked} ({@code auto} resolved by the ticket's model); a timed
     * ticket's root reports what it cost ({@link CallTimer}), off the call's critical path.
     */
    private Future<Optional<Buffer>> observed(AutoPolicy.Ticket ticket, GroupPolicy asked, CallShape call,
            long operation, int root, int[] targets, List<Buffer> pieces) {
        return ticket.model().compose(model -> {
            GroupPolicy chosen = asked;
            if (asked == GroupPolicy.AUTO) {
                chosen = auto.choose(model, call);
                if (communicator.rank() == 0 && LOG.isDebugEnabled()) {
                    LOG.debug("auto call {}: {} -> {}; predicted us static {} dynamic {} tree {}", ticket.index(), call,
                            chosen.configName(), Math.round(model.micros(GroupPolicy.STATIC, call)),
                            Math.round(model.micros(GroupPolicy.DYNAMIC, call)),
                            Math.round(model.micros(GroupPolicy.TREE, call)));
                }
            }
            GroupPolicy policy = chosen;
            long start = timer.now();
            Future<Optional<Buffer>> result = oneToMany(operation, root, targets, policy, pieces);
            if (ticket.timed()) {
                timer.time(operation, root, targets, policy != GroupPolicy.DYNAMIC, result, start).onSuccess(micros ->
                        micros.ifPresent(cost -> auto.observe(ticket.index(), policy, call, cost)));
            }
            return result;
        });
    }

    /**
     * A one-to-many call by {@code policy} (static, dynamic or tree), timed as {@code auto} times calls
     * ({@link CallTimer}): at the root its microseconds once every target had its piece, empty elsewhere.
     */
    Future<Optional<Double>> timed(int root, int[] targets, GroupPolicy policy, List<Buffer> pieces) {
        return call(operation -> {
            long start = timer.now();
            return timer.time(operation, root, targets, policy != GroupPolicy.DYNAMIC,
                    oneToMany(operation, root, targets, policy, pieces), start);
        });
    }

    Future<Optional<Buffer>> oneToMany(long operation, int root, int[] targets, GroupPolicy policy, List<Buffer> pieces) {
        if (!scope.open()) {
            return Future.failedFuture(new IllegalStateException("the multicast groups of this communicator are closed"));
        }
        return switch (policy) {
            case STATIC -> staticPolicy.oneToMany(operation, root, targets, pieces);
            case DYNAMIC -> dynamicPolicy.oneToMany(operation, root, targets, pieces);
            case TREE -> treePolicy.oneToMany(operation, root, targets, pieces);
            case PERSISTENT, AUTO -> Future.failedFuture(new IllegalArgumentException(policy.configName()
                    + " is not a policy of a single call"));
        };
    }

    Future<List<Buffer>> allgatherOn(long operation, GroupPolicy policy, Buffer data) {
        return policy == GroupPolicy.TREE ? treePolicy.allgather(operation, data) : staticPolicy.allgather(operation, data);
    }

    private Future<GroupRequest> init(int root, int[] targets, int[] counts, boolean shared, GroupPolicy policy) {
        if (policy == GroupPolicy.STATIC || policy == GroupPolicy.DYNAMIC) {
            throw new IllegalArgumentException("a persistent request is persistent, tree or auto, not "
                    + policy.configName());
        }
        AutoPolicy.Ticket ticket = auto.next(collectives::allgatherv);
        return call(operation -> ticket.model().compose(model -> requests.init(operation, root, targets, counts, shared,
                policy == GroupPolicy.AUTO ? model.chooseRequest(startShape(targets, counts, shared)) : policy)));
    }

    /** What each start of a request moves. */
    private static CallShape startShape(int[] targets, int[] counts, boolean shared) {
        if (shared) {
            return new CallShape(targets.length, counts[0], true);
        }
        long total = Arrays.stream(counts).asLongStream().sum();
        return CallShape.scatter(targets.length, (total + targets.length - 1) / targets.length);
    }

    // ---- checks ----

    /** A single call's policy, {@code auto} still unresolved. */
    private GroupPolicy single(GroupPolicy policy) {
        GroupPolicy asked = policy == null ? defaultPolicy : policy;
        if (asked == GroupPolicy.PERSISTENT) {
            throw new IllegalArgumentException("persistent is for requests: use scatterInit or bcastInit, then start()");
        }
        return asked;
    }

    /** allgather: the static group (every member multicasts once), the point-to-point allgather, or auto. */
    private GroupPolicy allgatherPolicy(GroupPolicy policy) {
        GroupPolicy asked = policy == null ? defaultPolicy : policy;
        if (asked == GroupPolicy.DYNAMIC || asked == GroupPolicy.PERSISTENT) {
            throw new IllegalArgumentException("allgather involves every member: static, tree or auto (persistent:"
                    + " allgatherInit), not " + asked.configName());
        }
        return asked;
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
}
