package dev.canopy.collectives.run;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.BlockingCollectives;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.multicast.GroupCollectives;
import dev.canopy.collectives.internal.multicast.GroupEndpoints;
import dev.canopy.collectives.internal.timing.TimingsPublisher;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.multicast.internal.groups.GroupAllocator;
import dev.canopy.multicast.internal.groups.GroupPolicy;
import dev.canopy.multicast.internal.groups.ManagementTimes;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A process's membership in a running job: WORLD, the collectives over it and blocking views for
 * MPI-style code. {@link #close()} finishes with the others and leaves the job; {@link #leave()} leaves
 * at once.
 *
 * <p>Collectives start on the level file's plan. A session joined with live plans
 * ({@link JoinOptions#withLivePlans}) also probes the network and takes part in the plan leader election;
 * it moves to the leader's newest plan only at {@link #adoptNewestPlan()}, which every member calls at the
 * same point of its sequence of collectives, so every collective runs on one epoch on every member. A live epoch
 * has trees per message size class, and each collective picks its size's trees by itself (docs/collectives.md).
 *
 * <p>The one-to-many collectives over policy-managed multicast groups ({@link GroupCollectives}: static, dynamic,
 * persistent, tree or auto) are opened on WORLD by the first {@link #groups} call, leasing through this node's
 * ZooKeeper session, and closed with the session.
 */
public final class CanopySession implements AutoCloseable {

    private final Vertx vertx;
    private final VertxOwner vertxOwner;
    private final CanopyNode node;
    private final Communicator world;
    private final GridModel grid;
    private final Optional<LivePlans> livePlans;
    private final GroupAllocator leases;
    private final TimingsPublisher timings;
    private final AtomicReference<OpenedGroups> groups = new AtomicReference<>();
    // Replaced at a switch point; the collectives are immutable, so a volatile reference publishes them.
    private volatile Collectives collectives;
    private final AtomicReference<Future<Void>> ending = new AtomicReference<>();

    /** @param configured the collectives on the level file's plan, which they follow until the first switch point */
    /** WORLD's groups, opened once, and what they were opened with. */
    private record OpenedGroups(GroupEndpoints endpoints, GroupPolicy defaultPolicy, Future<GroupCollectives> opened) {
    }

    /**
     * @param configured the collectives on the level file's plan, which they follow until the first switch point
     * @param leases     this node's multicast group allocator (its ZooKeeper session, the grid's range)
     * @param timings    publishes this member's collective timings for the job's dashboards
     */
    CanopySession(Vertx vertx, VertxOwner vertxOwner, CanopyNode node, Communicator world, GridModel grid,
            Collectives configured, Optional<LivePlans> livePlans, GroupAllocator leases, TimingsPublisher timings) {
        this.vertx = vertx;
        this.vertxOwner = vertxOwner;
        this.node = node;
        this.world = world;
        this.grid = grid;
        this.livePlans = livePlans;
        this.leases = leases;
        this.timings = timings;
        this.collectives = configured;
        if (vertxOwner == VertxOwner.SESSION) {
            FatalErrors.watch(vertx); // the program's own Vert.x keeps its own exception handler
        }
        EmergencyExit.opened(this);
    }

    public Communicator world() {
        return world;
    }

    public int rank() {
        return world.rank();
    }

    public int size() {
        return world.size();
    }

    public GridModel grid() {
        return grid;
    }

    /**
     * The job's ZooKeeper session, with the job secret's credentials, for services that keep znodes of their own
     * under the same identity (the dynamic name service of a spawned process). The session owns it: do not close it.
     */
    public ZooKeeperSession zooKeeperSession() {
        return node.zooKeeperSession();
    }

    /**
     * The switch point to the plan leader's newest plan. Every member calls it at the same point of its
     * sequence of collectives on WORLD (e.g. every N iterations): the members agree on the highest epoch any of
     * them has heard of (an allreduce on the current plan) and all continue on that epoch's plan. Returns the
     * epoch the session's collectives carry from now on. Without live plans it changes nothing and returns the
     * current epoch at once. Blocks; take {@link #collectives()} and {@link #blocking} views again afterwards
     * (views taken before keep running, consistently, on the plan they had). It fails, like any collective, when
     * a member fails, and when this member cannot read the agreed plan from ZooKeeper; the others may have
     * switched by then, so treat a failed switch point like a failed collective and leave.
     */
    public long adoptNewestPlan() {
        return Blocking.await(adoptNewestPlanAsync()).plan().epoch();
    }

    /** {@link #adoptNewestPlan()} without blocking: completes with the collectives on the adopted plan. */
    public Future<Collectives> adoptNewestPlanAsync() {
        if (livePlans.isEmpty()) {
            return Future.succeededFuture(collectives);
        }
        return livePlans.get().planSwitch().adoptNewest(collectives).onSuccess(adopted -> collectives = adopted);
    }

    /** The asynchronous collectives over WORLD, on the plan adopted at the last switch point. */
    public Collectives collectives() {
        return collectives;
    }

    /** Blocking collectives over WORLD on arrays of {@code type}, e.g. {@code session.blocking(ArrayType.DOUBLES)}. */
    public <A> BlockingCollectives<A> blocking(ArrayType<A> type) {
        return new BlockingCollectives<>(collectives, type);
    }

    /**
     * WORLD's one-to-many collectives over multicast groups on real IPv4 multicast through this member's own
     * address (the host it joined with), {@code defaultPolicy} for calls that name none ({@code auto} unless the
     * program knows better; each call and each request can still name its own). Collective the first time (every
     * member calls it at the same point of its sequence of collectives: it opens the static group and measures the
     * policies); later calls return the same object. Blocks.
     */
    public GroupCollectives groups(GroupPolicy defaultPolicy) {
        InetAddress own;
        try {
            own = InetAddress.getByName(node.address().host());
        } catch (UnknownHostException e) {
            throw new IllegalStateException("multicast groups: this member's host " + node.address().host()
                    + " does not resolve to an address to multicast from; join with a host that does, or give the"
                    + " endpoints (groups(GroupEndpoints, policy))", e);
        }
        return Blocking.await(groupsAsync(GroupEndpoints.udp(own), defaultPolicy));
    }

    /**
     * {@link #groups(GroupPolicy)} on {@code endpoints} (e.g. {@link GroupEndpoints#emulated} for members in one
     * JVM), without blocking. Opened once per session: a later call with other endpoints or another default policy
     * fails, naming what the groups were opened with. Leases go through this node's ZooKeeper session (they end
     * with it) from the grid's {@code multicast_range}; the groups close with the session.
     */
    public synchronized Future<GroupCollectives> groupsAsync(GroupEndpoints endpoints, GroupPolicy defaultPolicy) {
        if (ending.get() != null) {
            return Future.failedFuture(new IllegalStateException("this session has ended; its multicast groups are closed"));
        }
        OpenedGroups current = groups.get();
        if (current == null) {
            current = new OpenedGroups(endpoints, defaultPolicy, GroupCollectives.open(collectives, leases, endpoints,
                    MulticastOptions.DEFAULTS, defaultPolicy, new ManagementTimes()));
            groups.set(current);
        }
        if (!current.endpoints().kind().equals(endpoints.kind()) || current.defaultPolicy() != defaultPolicy) {
            return Future.failedFuture(new IllegalStateException("WORLD's multicast groups are open already on "
                    + current.endpoints().kind() + " endpoints with default policy "
                    + current.defaultPolicy().configName() + "; this call asks for " + endpoints.kind() + " and "
                    + defaultPolicy.configName() + ": open them once per session (name a policy per call instead)"));
        }
        return current.opened();
    }

    /** The node under this session: its identity, and its failure detector's verdicts ({@link CanopyNode#onDeparture}). */
    public CanopyNode node() {
        return node;
    }

    /** How log lines name this process: {@code site/host#rank}. */
    public String label() {
        return node.label();
    }

    /**
     * Finishes like {@code MPI_Finalize}: a barrier with every member, so no member leaves while another
     * still waits for a message from it, then leaves the job and stops this process's event loops (unless the
     * program owns its Vert.x, {@link VertxOwner#CALLER}). Blocks until done. A failed barrier (a member died)
     * does not keep this member from leaving.
     */
    @Override
    public void close() {
        Blocking.await(closeAsync());
    }

    /** {@link #close()} without blocking, e.g. from a verticle's {@code stop()}. */
    public Future<Void> closeAsync() {
        return end(() -> collectives.barrier().transform(finished -> timings.close())
                .transform(published -> closeGroups())
                .transform(closed -> closeBroadcastPath())
                .transform(closed -> closeLivePlans())
                .transform(stopped -> node.close()).eventually(this::closeOwnVertx));
    }

    /** Leaves the job at once, without waiting for the others (after a failure); blocks until done. */
    public void leave() {
        Blocking.await(leaveAsync());
    }

    /** {@link #leave()} without blocking. */
    public Future<Void> leaveAsync() {
        timings.stop();
        return end(() -> closeGroups().transform(left -> closeBroadcastPath()).transform(closed -> closeLivePlans())
                .transform(stopped -> node.close()).eventually(this::closeOwnVertx));
    }

    private Future<Void> closeOwnVertx() {
        return vertxOwner == VertxOwner.SESSION ? vertx.close() : Future.succeededFuture();
    }

    /**
     * The session ends once: the first {@link #close()} or {@link #leave()} (from the program, or from an
     * {@link EmergencyExit} on another thread) decides how, later calls wait for the same end (a second
     * end started alongside would close Vert.x under the first).
     */
    private Future<Void> end(Supplier<Future<Void>> how) {
        EmergencyExit.closed(this);
        Promise<Void> ended = Promise.promise();
        if (ending.compareAndSet(null, ended.future())) {
            how.get().onComplete(ended);
        }
        return ending.get();
    }

    /** WORLD's multicast groups, if opened: every group left, the leases released. */
    private Future<Void> closeGroups() {
        OpenedGroups opened = groups.get();
        if (opened == null) {
            return Future.succeededFuture();
        }
        return opened.opened().transform(open -> open.succeeded() ? open.result().closeAsync() : Future.succeededFuture());
    }

    /** The multicast layer under bcast, if any: its fabric endpoint and buffers. */
    private Future<Void> closeBroadcastPath() {
        collectives.broadcastPath().close();
        return Future.succeededFuture();
    }

    private Future<Void> closeLivePlans() {
        return livePlans.map(LivePlans::close).orElse(Future.succeededFuture());
    }
}
