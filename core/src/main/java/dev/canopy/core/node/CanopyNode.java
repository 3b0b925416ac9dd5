package dev.canopy.core.node;

import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.CommunicatorRuntime;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.failure.Departure;
import dev.canopy.core.internal.failure.FailureMonitor;
import dev.canopy.core.internal.membership.JobMembership;
import dev.canopy.core.internal.membership.MembershipEvent;
import dev.canopy.core.internal.membership.MembershipView;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.internal.security.SecurityCounters;
import dev.canopy.core.transport.FrameDemux;
import dev.canopy.core.transport.FrameFamily;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportSecurity;
import dev.canopy.core.transport.VertxTransport;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.LoggerFactory;

/**
 * One Canopy process component: a transport (TCP for reliable frames, UDP for datagrams), a
 * ZooKeeper session, its membership in one job and the communicators built on them.
 *
 * <p>Lifecycle, moved by compare-and-set: {@link #start} binds the transport and connects to
 * ZooKeeper (STARTED); {@link #join} registers, waits at the start barrier and returns WORLD (JOINING,
 * then JOINED); {@link #leave} removes the member znode, so others see this node leave at once (LEFT);
 * {@link #close} leaves if needed, closes the transport and the session (CLOSED).
 *
 * <p>When membership reports that a member left, the node tells the transport ({@code peerGone}, so
 * sends to it fail fast) and the communicators (so receives waiting for it fail once the frames it
 * sent before leaving have arrived, or after {@link NodeOptions#departureGrace()}).
 *
 * <p>The transport is shared by frame family ({@link FrameDemux}): the communicators receive
 * {@link FrameFamily#COMMUNICATION} traffic, a probe service started on {@link #measurementTransport()}
 * receives {@link FrameFamily#MEASUREMENT} traffic.
 *
 * <p>Only nodes given the same {@link NodeOptions#secret()} talk to each other: the transport
 * authenticates every connection and datagram with it, and a frame must come from the member whose
 * rank it claims ({@link MemberSourceCheck}).
 *
 * <p>All of the node's state lives on one Vert.x context: the caller's context when {@link #start} is called on
 * one, otherwise a new context. Vert.x 5 runs every context a non-Vert.x thread creates on that thread's one event
 * loop, so nodes started one after another from a plain thread share a loop: start each from a context of its own
 * (a verticle's) to spread them over the pool.
 */
public final class CanopyNode {

    private static final Duration ZOOKEEPER_CONNECT_TIMEOUT = Duration.ofSeconds(15);
    /** How long a leaving node waits for its goodbyes to be written before it deletes its member znode. */
    private static final Duration GOODBYE_TIMEOUT = Duration.ofSeconds(1);

    public enum State {
        STARTED,
        JOINING,
        JOINED,
        LEFT,
        CLOSED
    }

    private final AtomicReference<State> state = new AtomicReference<>(State.STARTED);
    private final NodeOptions options;
    private final Context context;
    private final Transport transport;
    private final FrameDemux demux;
    private final ZooKeeperSession zooKeeper;
    private final JobMembership membership;
    private final MemberSourceCheck sources;
    // Owned by the context.
    private final List<Handler<MembershipEvent>> listeners = new ArrayList<>();
    private final List<Handler<Departure>> departureListeners = new ArrayList<>();
    private CommunicatorRuntime runtime;
    private FailureMonitor failureMonitor;
    // Written once on the context when WORLD exists; immutable values readable from any thread.
    private volatile Communicator world;
    private volatile String label;
    private final NodeLogger log = new NodeLogger(LoggerFactory.getLogger(CanopyNode.class), () -> label);

    private CanopyNode(NodeOptions options, Context context, Transport transport, ZooKeeperSession zooKeeper,
            MemberSourceCheck sources) {
        this.options = options;
        this.context = context;
        this.transport = transport;
        this.zooKeeper = zooKeeper;
        this.label = NodeLogger.label(options.coordinates(), OptionalInt.empty());
        this.demux = new FrameDemux(transport, () -> label, options.messageLimits().bytesPerPeer(),
                options.messageLimits().bytesTotal());
        Member self = new Member(options.id(), options.coordinates(), transport.localAddress());
        this.membership = new JobMembership(context, zooKeeper, options.job(), self, options.expectedSize(),
                options.barrierTimeout());
        membership.onEvent(this::membershipChanged);
        this.sources = sources;
        sources.follow(membership);
    }

    /** Binds the transport on the configured host and connects to ZooKeeper. */
    public static Future<CanopyNode> start(Vertx vertx, NodeOptions options) {
        return start(vertx, options, () -> ZooKeeperSession.open(vertx, options.zooKeeper(), options.sessionTimeout(),
                ZOOKEEPER_CONNECT_TIMEOUT, Optional.of(options.zooKeeperCredentials()), options.zooKeeperTls()));
    }

    /**
     * Binds the transport on the configured host and takes {@code connected}, a session to the options' ensemble
     * opened {@link ZooKeeperSession#openWithoutCredentials without credentials} before this process knew its job
     * (a spawn's warm JVM), giving it the job's credentials: from here on it is the session {@link #start(Vertx,
     * NodeOptions)} would have opened, and the node owns it.
     */
    public static Future<CanopyNode> start(Vertx vertx, NodeOptions options, ZooKeeperSession connected) {
        return start(vertx, options, () -> vertx.executeBlocking(() -> connected.authenticate(options.zooKeeperCredentials())));
    }

    private static Future<CanopyNode> start(Vertx vertx, NodeOptions options, Supplier<Future<ZooKeeperSession>> session) {
        Context context = vertx.getOrCreateContext();
        Promise<CanopyNode> started = Promise.promise();
        String transportLabel = options.coordinates().site() + "/" + options.coordinates().host();
        if (Vertx.currentContext() == null) {
            TransportSecurity.prepareCrypto();
        }
        MemberSourceCheck sources = new MemberSourceCheck();
        TransportSecurity security = TransportSecurity.of(options.secret(), options.job()).withSourceCheck(sources);
        context.runOnContext(v -> {
            // The two are independent: binding while the ZooKeeper session connects takes one of them off every
            // start's critical path (a spawned child's above all).
            Future<Transport> bound = VertxTransport.start(vertx, options.transport().withNodeLabel(transportLabel), security)
                    .map(options.layers()::build);
            Future<ZooKeeperSession> connected = session.get();
            Future.all(bound, connected).onComplete(both -> {
                if (both.succeeded()) {
                    started.complete(new CanopyNode(options, context, bound.result(), connected.result(), sources));
                } else {
                    // The first failure fails the start at once; whichever half succeeds, now or later, is closed.
                    started.fail(both.cause());
                    bound.onSuccess(Transport::close);
                    connected.onSuccess(ZooKeeperSession::close);
                }
            });
        });
        return started.future();
    }

    /** Registers in the job, waits for the start barrier and returns the WORLD communicator. */
    public Future<Communicator> join() {
        if (!state.compareAndSet(State.STARTED, State.JOINING)) {
            return Future.failedFuture(new IllegalStateException(options.id() + " cannot join: it is " + state.get()));
        }
        return membership.start().onComplete(r -> sources.settle()).map(view -> {
            label = NodeLogger.label(options.coordinates(), view.rankOf(options.id()));
            runtime = new CommunicatorRuntime(context, demux.port(FrameFamily.COMMUNICATION), options.job(), view,
                    options.id(), label, options.departureGrace(), options.messageLimits());
            view.departed().forEach(id -> transport.peerGone(id, "it left before this node joined"));
            failureMonitor = new FailureMonitor(context, demux.port(FrameFamily.LIVENESS), options.job().frameKey(), view,
                    options.id(), options.heartbeat(), NanoClock.SYSTEM, label);
            runtime.enableRecovery(failureMonitor, zooKeeper.client());
            failureMonitor.start(this::departed, runtime::revokedByPeer);
            return runtime;
        }).compose(CommunicatorRuntime::world).onSuccess(communicator -> {
            world = communicator;
            state.compareAndSet(State.JOINING, State.JOINED);
            log.info("{} joined job {} as rank {} of {}", options.id(), options.job(), communicator.rank(), communicator.size());
        });
    }

    /** Leaves the job: others see this node leave at once; its communicators stop working. */
    public Future<Void> leave() {
        State before = state.get();
        if ((before != State.JOINED && before != State.JOINING) || !state.compareAndSet(before, State.LEFT)) {
            return Future.succeededFuture();
        }
        return leaveNow();
    }

    /** Leaves (when joined), closes the transport and the ZooKeeper session. Idempotent. */
    public Future<Void> close() {
        State before = state.getAndSet(State.CLOSED);
        if (before == State.CLOSED) {
            return Future.succeededFuture();
        }
        sources.settle();
        Future<Void> left = before == State.JOINED || before == State.JOINING ? leaveNow() : membership.close();
        return left.transform(r -> {
                    if (failureMonitor != null) {
                        failureMonitor.stop();
                    }
                    return transport.close();
                })
                .transform(r -> zooKeeper.close())
                .onComplete(r -> log.info("{} closed", options.id()));
    }

    /** Adds a listener for joins and leaves of the job; it runs on the node's context. */
    public void onMembershipEvent(Handler<MembershipEvent> listener) {
        context.runOnContext(v -> listeners.add(listener));
    }

    /**
     * Adds a listener for the failure detector's verdicts, once joined: every other member gone, once each, as
     * failed (with its evidence) or left (it said goodbye). It runs on the node's context.
     */
    public void onDeparture(Handler<Departure> listener) {
        context.runOnContext(v -> departureListeners.add(listener));
    }

    public State state() {
        return state.get();
    }

    public NodeId id() {
        return options.id();
    }

    public JobId job() {
        return options.job();
    }

    public Coordinates coordinates() {
        return options.coordinates();
    }

    public NodeAddress address() {
        return transport.localAddress();
    }

    /** How log lines name this node: {@code site/host#rank} ({@code #?} before the start barrier). */
    public String label() {
        return label;
    }

    /** How many frames, datagrams and connections from the wire the node's transport refused, by reason. */
    public SecurityCounters securityCounters() {
        return transport.securityCounters();
    }

    /** The rank table, once joined. */
    public Optional<MembershipView> view() {
        return membership.view();
    }

    /** WORLD, once joined. */
    public Optional<Communicator> world() {
        return Optional.ofNullable(world);
    }

    public Context context() {
        return context;
    }

    /**
     * The node's transport for network measurement: it receives only probe frames and datagrams
     * ({@link FrameFamily#MEASUREMENT}); sends go out through the node's transport and its layers. Closing it
     * detaches its handlers; the transport itself closes with the node.
     */
    public Transport measurementTransport() {
        return demux.port(FrameFamily.MEASUREMENT);
    }

    /**
     * The node's ZooKeeper client, for job state other modules keep next to the membership (the plan leader,
     * its plans). The node owns it: do not close it; it closes with the node.
     */
    public CuratorFramework zooKeeper() {
        return zooKeeper.client();
    }

    /**
     * The ZooKeeper session (tests expire it to see how the node reacts; multicast group leases belong to it, so a
     * dead process's groups go with its session). The node owns it: do not close it.
     */
    public ZooKeeperSession zooKeeperSession() {
        return zooKeeper;
    }

    private Future<Void> leaveNow() {
        Future<Void> stopped = runtime == null ? Future.succeededFuture() : runtime.close("this node left the job");
        // The goodbye goes after every frame already queued, so peers see this leave as a leave, not a failure.
        return stopped.transform(r -> failureMonitor == null ? Future.<Void>succeededFuture()
                        : failureMonitor.goodbye(GOODBYE_TIMEOUT))
                .transform(r -> membership.close())
                .onSuccess(v -> log.info("{} left job {}", options.id(), options.job()));
    }

    /** Failure detection decided that a member failed or left: sends to it fail, then receives from it. */
    private void departed(Departure departure) {
        runtime.memberDeparted(departure);
        if (departure.kind() == Departure.Kind.FAILED) {
            // Communicator sends fail at once (the runtime knows); the connection closes once the member is told.
            failureMonitor.tellExcluded(departure.member())
                    .onComplete(told -> transport.peerGone(departure.member(), departure.reason()));
        } else {
            transport.peerGone(departure.member(), departure.reason());
        }
        for (Handler<Departure> listener : List.copyOf(departureListeners)) {
            listener.handle(departure);
        }
    }

    private void membershipChanged(MembershipEvent event) {
        if (event.kind() == MembershipEvent.Kind.LEFT) {
            NodeId gone = event.member().id();
            if (gone.equals(options.id()) || failureMonitor == null) {
                if (!gone.equals(options.id())) {
                    transport.peerGone(gone, event.reason());
                } else if (failureMonitor != null) {
                    // This node's session ended: its silence confirms to the others that its znode went for good.
                    failureMonitor.stop();
                }
                if (runtime != null) {
                    runtime.memberFailed(gone, event.reason());
                }
            } else {
                failureMonitor.memberZnodeDeleted(gone);
            }
        }
        for (Handler<MembershipEvent> listener : List.copyOf(listeners)) {
            listener.handle(event);
        }
    }
}
