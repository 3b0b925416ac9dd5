package dev.canopy.core.internal.membership;

import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeLogger;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.x.async.AsyncCuratorFramework;
import org.apache.curator.x.async.AsyncStage;
import org.apache.curator.x.async.api.CreateOption;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.slf4j.LoggerFactory;

/**
 * This node's membership in one job, kept in ZooKeeper under {@code /canopy/jobs/<job>}:
 * <ul>
 *   <li>{@code members/<node id>}: an ephemeral znode per node holding its {@link Member} as JSON; it
 *       disappears when the node closes or its session expires (a crash);</li>
 *   <li>{@code start}: the start record, created once by whichever node first sees {@code expectedSize}
 *       members; it lists the members registered at that moment (at least {@code expectedSize}). It
 *       stays while the job runs: a node that finds an older start record is told to pick a fresh
 *       name. Every node sorts that list by {@link Member#RANK_ORDER}, so all agree on ranks, and ranks
 *       stay fixed afterwards.</li>
 * </ul>
 * Before registering, the node claims the job's root ({@link JobZnodes#claim}): with
 * {@link ZooKeeperCredentials} every znode of the job belongs to them, and a root that someone else
 * created is refused. After the start, a member whose znode disappears is reported
 * {@link MembershipEvent.Kind#LEFT} and marked departed in the {@link MembershipView}; if this node's own
 * session is LOST, it reports itself as having left, saying whether ZooKeeper expired the session or the
 * client lost contact with every server. SUSPENDED (a ZooKeeper server failing over, or none answering
 * yet) changes nothing: the session, and with it every member, survives until it is LOST.
 *
 * <p>Closing deletes this node's member znode, and when it was the last one, the job's whole subtree
 * (see {@link #close()}). A node whose session was LOST closes without talking to ZooKeeper, and closing
 * never waits longer than the session timeout for it.
 *
 * <p>The lifecycle is LATENT, STARTED, CLOSED, moved by compare-and-set. All other state is owned
 * by one Vert.x context: Curator's callbacks are posted to it, listeners run on it.
 */
public final class JobMembership {

    private static final String MEMBERS = "/members";
    private static final String START = "/start";

    public enum State {
        LATENT,
        STARTED,
        CLOSED
    }

    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private final Context context;
    private final ZooKeeperSession session;
    private final JobZnodes znodes;
    private final AsyncCuratorFramework zooKeeper;
    private final CuratorCache cache;
    private final ConnectionStateListener connectionListener;
    private final CuratorFramework namespaced;
    private final JobId job;
    private final Member self;
    private final int expectedSize;
    private final Duration barrierTimeout;
    private final NodeLogger log;

    // Owned by the context.
    private final List<Handler<MembershipEvent>> listeners = new ArrayList<>();
    private final Map<NodeId, Member> registered = new HashMap<>();
    private final Promise<MembershipView> started = Promise.promise();
    private long ownCreationZxid = -1;
    private boolean startRecordRequested;
    private boolean sessionLost;
    private long barrierTimer = -1;
    // Written on the context only; a reference to an immutable value, readable from any thread.
    private volatile MembershipView view;

    /**
     * @param session a connected ZooKeeper session (this class uses {@code /canopy/jobs/<job>}); its
     *                credentials, if any, are the job's
     * @param expectedSize how many members the start barrier waits for
     * @param barrierTimeout how long to wait for them before failing with the list of who is there
     */
    public JobMembership(Context context, ZooKeeperSession session, JobId job, Member self, int expectedSize,
            Duration barrierTimeout) {
        if (expectedSize < 1) {
            throw new IllegalArgumentException("expected job size " + expectedSize + " must be at least 1");
        }
        this.context = Objects.requireNonNull(context, "context");
        this.job = Objects.requireNonNull(job, "job");
        this.self = Objects.requireNonNull(self, "self");
        this.expectedSize = expectedSize;
        this.barrierTimeout = Objects.requireNonNull(barrierTimeout, "barrierTimeout");
        this.session = Objects.requireNonNull(session, "session");
        this.znodes = new JobZnodes(session, job);
        this.namespaced = session.client().usingNamespace(JobZnodes.root(job).substring(1));
        this.zooKeeper = AsyncCuratorFramework.wrap(namespaced);
        this.cache = CuratorCache.build(namespaced, "/");
        this.connectionListener = (ignored, newState) -> context.runOnContext(v -> connectionChanged(newState));
        this.log = new NodeLogger(LoggerFactory.getLogger(JobMembership.class), () -> NodeLogger.label(
                self.coordinates(), view == null ? OptionalInt.empty() : view.rankOf(self.id())));
    }

    public State state() {
        return state.get();
    }

    public JobId job() {
        return job;
    }

    public Member self() {
        return self;
    }

    /** The rank table, once the start barrier has passed. */
    public Optional<MembershipView> view() {
        return Optional.ofNullable(view);
    }

    /** Adds a listener for joins and leaves; it runs on this membership's context. */
    public void onEvent(Handler<MembershipEvent> listener) {
        context.runOnContext(v -> listeners.add(listener));
    }

    /**
     * Registers this node and waits at the start barrier. Completes with the agreed rank table, or
     * fails with the reason (duplicate node id, job already started, barrier timeout, session lost).
     */
    public Future<MembershipView> start() {
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            return Future.failedFuture(new IllegalStateException(
                    "membership of " + self.id() + " in job " + job + " cannot start: it is " + state.get()));
        }
        context.runOnContext(v -> register());
        return started.future();
    }

    /**
     * Deletes this node's member znode (others see it leave at once) and stops watching; the last member out
     * deletes the job's whole subtree. Waits at most the session timeout for ZooKeeper. Idempotent.
     */
    public Future<Void> close() {
        State before = state.getAndSet(State.CLOSED);
        if (before != State.STARTED) {
            return Future.succeededFuture();
        }
        Promise<Void> closed = Promise.promise();
        context.runOnContext(v -> shutDown().onComplete(closed));
        return closed.future();
    }

    private void register() {
        namespaced.getConnectionStateListenable().addListener(connectionListener);
        cache.listenable().addListener(CuratorCacheListener.builder()
                .forCreates(onContext(this::created))
                .forDeletes(onContext(this::deleted))
                .build());
        znodes.claim(context).compose(claimed -> membersParent()
                .recover(e -> Future.failedFuture(new IllegalStateException("cannot create the members znode of job "
                        + job + " in ZooKeeper: " + znodes.refusal(cause(e)).getMessage(), e)))).onComplete(ready -> {
            if (ready.failed()) {
                failStart(ready.cause());
            } else if (state.get() == State.STARTED) {
                cache.start();
                createOwnZnode();
            }
        });
    }

    /**
     * Creates the job's members znode before the cache starts watching: a member created while the
     * cache's root is itself still being created can be missed by the cache, and then never be seen
     * to leave.
     */
    private Future<Void> membersParent() {
        return Future.fromCompletionStage(zooKeeper.create().withOptions(EnumSet.of(CreateOption.createParentsIfNeeded))
                        .forPath(MEMBERS), context)
                .<Void>mapEmpty()
                .recover(e -> cause(e) instanceof KeeperException.NodeExistsException
                        ? Future.succeededFuture()
                        : Future.failedFuture(e));
    }

    private void createOwnZnode() {
        Stat stat = new Stat();
        Future.fromCompletionStage(zooKeeper.create()
                        .withOptions(EnumSet.of(CreateOption.createParentsAsContainers), CreateMode.EPHEMERAL, null, stat)
                        .forPath(memberPath(self.id()), MemberCodec.encode(self)), context)
                .onSuccess(path -> {
                    ownCreationZxid = stat.getCzxid();
                    log.info("{} registered in job {} at {}; waiting for {} members", self.id(), job, self.address(),
                            expectedSize);
                    barrierTimer = context.owner().setTimer(barrierTimeout.toMillis(), id -> barrierTimedOut());
                    evaluateBarrier();
                })
                .onFailure(e -> failStart(cause(e) instanceof KeeperException.NodeExistsException
                        ? new IllegalStateException("node id " + self.id() + " is already registered in job " + job
                                + ": another process uses it, or its previous session has not expired yet", e)
                        : new IllegalStateException("cannot register " + self.id() + " in job " + job
                                + " in ZooKeeper: " + znodes.refusal(cause(e)).getMessage(), e)));
    }

    private void created(ChildData data) {
        String path = data.getPath();
        if (path.startsWith(MEMBERS + "/")) {
            try {
                Member member = MemberCodec.decode(data.getData(), path);
                registered.put(member.id(), member);
                if (view == null || view.contains(member.id())) {
                    emit(MembershipEvent.joined(member));
                } else {
                    log.warn("ignores {} joining job {}: the job has already started", member.id(), job);
                }
            } catch (IllegalArgumentException e) {
                log.warn("ignores a member znode: {}", e.getMessage());
            }
        }
        evaluateBarrier();
    }

    private void deleted(ChildData data) {
        String path = data.getPath();
        if (!path.startsWith(MEMBERS + "/")) {
            return;
        }
        NodeId id = NodeId.of(path.substring(MEMBERS.length() + 1));
        registered.remove(id);
        if (id.equals(self.id()) && !sessionLost && state.get() == State.STARTED) {
            recreateOwnZnode();
        } else if (view != null && view.isAlive(id)) {
            depart(id, id.equals(self.id())
                    ? "this node's member znode was deleted (its ZooKeeper session ended)"
                    : "its member znode was deleted (it closed, or its ZooKeeper session expired)");
        }
    }

    /**
     * This node's member znode went while its session lives: someone with rights over the job's znodes (a holder
     * of the secret, a ZooKeeper administrator) deleted it. The node is alive, so it puts the znode back; the
     * other members keep it as long as it answers over the authenticated transport ({@code FailureMonitor}).
     */
    private void recreateOwnZnode() {
        log.warn("{}'s member znode in job {} was deleted while its ZooKeeper session lives; re-creating it", self.id(), job);
        Future.fromCompletionStage(zooKeeper.create().withMode(CreateMode.EPHEMERAL)
                        .forPath(memberPath(self.id()), MemberCodec.encode(self)), context)
                .onFailure(e -> {
                    if (!(cause(e) instanceof KeeperException.NodeExistsException)) {
                        log.warn("{} could not re-create its member znode in job {}: {}", self.id(), job,
                                znodes.refusal(cause(e)).getMessage());
                    }
                });
    }

    private void evaluateBarrier() {
        if (view != null || ownCreationZxid < 0 || state.get() != State.STARTED) {
            return;
        }
        Optional<ChildData> startRecord = cache.get(START);
        if (startRecord.isPresent()) {
            adopt(startRecord.get());
        } else if (registered.size() >= expectedSize && !startRecordRequested) {
            startRecordRequested = true;
            List<Member> members = registered.values().stream().sorted(Member.RANK_ORDER).toList();
            Future.fromCompletionStage(zooKeeper.create().withMode(CreateMode.PERSISTENT)
                            .forPath(START, MemberCodec.encodeAll(members)), context)
                    .onFailure(e -> {
                        if (!(e instanceof KeeperException.NodeExistsException)) {
                            failStart(new IllegalStateException("cannot write the start record of job " + job
                                    + ": " + e.getMessage(), e));
                        }
                    });
        }
    }

    private void adopt(ChildData startRecord) {
        if (startRecord.getStat().getCzxid() < ownCreationZxid) {
            failStart(new IllegalStateException("job " + job + " had already started before " + self.id()
                    + " registered (its start record is older); start the nodes with a fresh job name"));
            return;
        }
        List<Member> members;
        try {
            members = MemberCodec.decodeAll(startRecord.getData(), START);
        } catch (IllegalArgumentException e) {
            failStart(e);
            return;
        }
        MembershipView agreed = MembershipView.startedWith(members);
        if (!agreed.contains(self.id())) {
            failStart(new IllegalStateException("job " + job + " started with " + members.size()
                    + " members without " + self.id() + "; start every node with the same expected size"));
            return;
        }
        view = agreed;
        context.owner().cancelTimer(barrierTimer);
        log.info("{} passed the start barrier of job {}: {} members, rank {}", self.id(), job, agreed.size(),
                agreed.rankOf(self.id()).orElseThrow());
        started.tryComplete(agreed);
        agreed.ranked().stream().filter(member -> !registered.containsKey(member.id()))
                .forEach(this::departIfGone);
    }

    /**
     * A member of the start record whose znode this node never saw: check it still exists, and watch
     * it, so that its leave is seen even if the cache never reports that znode.
     */
    private void departIfGone(Member member) {
        AsyncStage<Stat> exists = zooKeeper.watched().checkExists().forPath(memberPath(member.id()));
        Future.fromCompletionStage(exists, context).onSuccess(stat -> {
            if (stat == null && view.isAlive(member.id())) {
                depart(member.id(), "its member znode was gone when the job started");
            }
        });
        exists.event().thenAccept(event -> {
            if (event.getType() == Watcher.Event.EventType.NodeDeleted) {
                context.runOnContext(v -> {
                    if (view.isAlive(member.id())) {
                        depart(member.id(), "its member znode was deleted (it closed, or its ZooKeeper session expired)");
                    }
                });
            }
        });
    }

    private static Throwable cause(Throwable e) {
        return JobZnodes.cause(e);
    }

    private void connectionChanged(ConnectionState newState) {
        switch (newState) {
            case SUSPENDED -> log.warn("{} has no ZooKeeper connection to {}; membership is held while the session"
                    + " lasts ({} ms without contact)", self.id(), session.connectString(),
                    session.sessionTimeout().toMillis());
            case RECONNECTED -> log.info("{} reconnected to ZooKeeper", self.id());
            case LOST -> sessionLost();
            case CONNECTED, READ_ONLY -> log.debug("{} ZooKeeper connection {}", self.id(), newState);
        }
    }

    private void sessionLost() {
        sessionLost = true;
        String loss = session.describeLoss();
        if (view == null) {
            failStart(new IllegalStateException(self.id() + " " + loss + " while waiting at the start barrier of job "
                    + job));
        } else if (view.isAlive(self.id())) {
            depart(self.id(), "this node " + loss + "; it no longer counts as a member");
        }
    }

    private void barrierTimedOut() {
        if (view == null) {
            failStart(new IllegalStateException("start barrier of job " + job + ": " + registered.size() + " of "
                    + expectedSize + " members after " + barrierTimeout.toMillis() + " ms " + registered.keySet()
                    + "; start every node with the same job name, ZooKeeper and expected size"));
        }
    }

    private void depart(NodeId id, String reason) {
        Member member = view.member(view.rankOf(id).orElseThrow());
        view = view.withDeparture(id);
        log.info("sees {} leave job {}: {}", id, job, reason);
        emit(MembershipEvent.left(member, reason));
    }

    private void emit(MembershipEvent event) {
        for (Handler<MembershipEvent> listener : List.copyOf(listeners)) {
            try {
                listener.handle(event);
            } catch (RuntimeException e) {
                log.error("membership listener failed on {}", event, e);
            }
        }
    }

    private void failStart(Throwable cause) {
        if (started.tryFail(cause)) {
            log.warn("{}", cause.getMessage());
        }
    }

    private Future<Void> shutDown() {
        if (barrierTimer >= 0) {
            context.owner().cancelTimer(barrierTimer);
        }
        failStart(new IllegalStateException("membership of " + self.id() + " in job " + job
                + " was closed before the start barrier"));
        namespaced.getConnectionStateListenable().removeListener(connectionListener);
        cache.close();
        listeners.clear();
        if (ownCreationZxid < 0 || sessionLost) {
            // Never registered, or the session (and with it the member znode) is gone: nothing to delete.
            return Future.succeededFuture();
        }
        return leaveZooKeeper()
                .timeout(session.sessionTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .recover(e -> {
                    log.warn("{} could not leave job {} in ZooKeeper at {} ({}); its member znode goes when its session"
                            + " ends", self.id(), job, session.connectString(), cause(e).toString());
                    return Future.succeededFuture();
                });
    }

    /**
     * Deletes this node's member znode, then tries to delete {@code members}, which ZooKeeper refuses while
     * any member (a live one, or a crashed one whose session has not expired yet) is registered. The node
     * that succeeds was the last member out and deletes the rest of the job's subtree. Members that leave
     * together each delete their own znode before trying, so the last of those tries succeeds.
     */
    private Future<Void> leaveZooKeeper() {
        return Future.fromCompletionStage(zooKeeper.delete().forPath(memberPath(self.id())), context)
                .recover(e -> ignoring(e, KeeperException.NoNodeException.class))
                .compose(deleted -> Future.fromCompletionStage(zooKeeper.delete().forPath(MEMBERS), context))
                .compose(lastOut -> {
                    log.info("{} was the last member of job {}; deleting its znodes", self.id(), job);
                    return znodes.delete(context);
                }, notLast -> ignoring(notLast, KeeperException.NotEmptyException.class,
                        KeeperException.NoNodeException.class));
    }

    @SafeVarargs
    private static Future<Void> ignoring(Throwable e, Class<? extends KeeperException>... expected) {
        for (Class<? extends KeeperException> type : expected) {
            if (type.isInstance(cause(e))) {
                return Future.succeededFuture();
            }
        }
        return Future.failedFuture(e);
    }

    private Consumer<ChildData> onContext(Consumer<ChildData> action) {
        return data -> context.runOnContext(v -> action.accept(data));
    }

    private static String memberPath(NodeId id) {
        return MEMBERS + "/" + id.value();
    }
}
