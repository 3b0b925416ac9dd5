package dev.canopy.core.comm;

import dev.canopy.core.comm.FrameRouter.Unrouted;
import dev.canopy.core.internal.failure.Departure;
import dev.canopy.core.internal.failure.FailureMonitor;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.membership.MembershipView;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeLogger;
import dev.canopy.core.transport.InboundEnd;
import dev.canopy.core.transport.OwnerContext;
import dev.canopy.core.transport.Transport;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.LoggerFactory;

/**
 * The communicators of one node in one started job: routes incoming frames to them, keeps which
 * members have failed, allocates context ids and serialises communicator creation.
 *
 * <p>Context ids: WORLD is {@value #WORLD_CONTEXT}. Each node keeps {@code nextContextId}, above every
 * id it has used, and the ids of its freed communicators. A split or shrink gathers every participant's
 * offer ({@link ContextIdOffer}): the children take the smallest ids freed on every participant, then
 * ids from the largest {@code nextContextId} up, and every participant marks them used. So a new id is
 * unused on every participant: no node ever has two communicators with one id. A freed id is offered
 * again only once {@code free()} has heard from every member that it sends nothing more on it, so no
 * late frame of the freed communicator can reach one that reuses its id. Creation calls (split,
 * splitByLevel, shrink, free) are serialised per node, and, as for MPI's blocking collectives, must be
 * called in the same order on every node of overlapping communicators.
 *
 * <p>Memory: messages and announcements that no receive has taken yet, and frames waiting for a
 * context this node has not created, hold their sender's credit ({@link FlowProtocol},
 * {@link InboundBudget}); a frame beyond it is rejected, counted and logged (at most once a second),
 * and its sender is told once, which fails its sends to this node ({@link MessageRejectedException}).
 *
 * <p>A member that leaves: sends to it fail at once. Receives from it keep waiting until every frame
 * it wrote to this node has arrived, that is until its connections to this node have closed, or for
 * at most the departure grace (a peer that stays connected, or whose connection breaks without a
 * close); then they fail. ZooKeeper's leave event often arrives before the last bytes the member
 * sent before leaving; this way those frames are still delivered, and before any failure.
 *
 * <p>All state is confined to {@link #context()}; public methods may be called from any thread.
 */
public final class CommunicatorRuntime {

    public static final int WORLD_CONTEXT = 1;

    private final Context context;
    private final Transport transport;
    private final JobId job;
    private final MembershipView world;
    private final Member self;
    private final int selfWorldRank;
    private final String nodeLabel;
    private final FrameRouter router;
    private final Duration departureGrace;
    private final NodeLogger log;
    private final InboundBudget inbound;
    /** Credit towards each node, by WORLD rank. */
    private final OutboundWindow[] outbound;

    // Owned by the context.
    /** Members membership reported gone, and why: sends to them fail. */
    private final Map<NodeId, String> departed = new HashMap<>();
    /** Departed members whose last frames are in (or the grace ran out): receives from them fail. */
    private final Map<NodeId, String> failed = new HashMap<>();
    /** Departed members whose connections to this node have ended (or the grace ran out) since this runtime started. */
    private final Set<NodeId> inboundEnded = new HashSet<>();
    /** Members that failed (not those that left on purpose), in the order this node learned of them. */
    private final List<NodeId> failedInOrder = new ArrayList<>();
    private final Map<NodeId, Departure.Kind> departureKinds = new HashMap<>();
    /** Revocations of contexts this node has no communicator for yet (a faster member created and revoked it). */
    private final Map<Integer, RevocationNotice> earlyRevocations = new HashMap<>();
    private final List<GroupCommunicator> communicators = new ArrayList<>();
    /** A pass of {@link GroupCommunicator#fetchAheadWithRoom} is scheduled on the context. */
    private boolean fetchAheadPassDue;
    private final AgreementKeys agreementKeys = new AgreementKeys();
    private FailureMonitor monitor;
    private FaultTolerantAgreement agreement;
    private int nextContextId = WORLD_CONTEXT + 1;
    /** Ids of freed communicators, below {@code nextContextId}: free again on this node. */
    private final TreeSet<Integer> reusableContextIds = new TreeSet<>();
    /** WORLD ranks told that this node rejects their frames. */
    private final boolean[] toldRejected;
    private long rejectedFrames;
    private long rejectedBytes;
    private long rejectsSinceLog;
    private long lastRejectLog;
    private Future<?> lastCreation = Future.succeededFuture();
    private String closedReason;

    /**
     * @param world the rank table of the started job; ranks in it are the WORLD ranks frames carry
     * @param transport a started transport; this runtime becomes its frame handler
     * @param departureGrace how long receives from a departed member wait for its connections to this node to close
     * @param limits how much unreceived data other nodes may leave at this one, and the eager limit of its sends
     */
    public CommunicatorRuntime(Context context, Transport transport, JobId job, MembershipView world, NodeId self,
            String nodeLabel, Duration departureGrace, MessageLimits limits) {
        this.context = Objects.requireNonNull(context, "context");
        this.transport = Objects.requireNonNull(transport, "transport");
        this.job = Objects.requireNonNull(job, "job");
        this.world = Objects.requireNonNull(world, "world");
        this.selfWorldRank = world.rankOf(self).orElseThrow(() -> new IllegalArgumentException(
                "node " + self + " is not in the rank table of job " + job));
        this.self = world.member(selfWorldRank);
        this.nodeLabel = nodeLabel;
        this.router = new FrameRouter(job.frameKey(), nodeLabel);
        this.departureGrace = Objects.requireNonNull(departureGrace, "departureGrace");
        this.log = new NodeLogger(LoggerFactory.getLogger(CommunicatorRuntime.class), nodeLabel);
        int worldSize = world.ranked().size();
        this.inbound = new InboundBudget(worldSize, limits, this::sendGrant);
        this.outbound = new OutboundWindow[worldSize];
        for (int r = 0; r < worldSize; r++) {
            outbound[r] = new OutboundWindow(limits.eagerLimit());
        }
        this.toldRejected = new boolean[worldSize];
        for (NodeId id : world.departed()) {
            departed.put(id, "it had left before this node started its communicators");
            failed.put(id, "it had left before this node started its communicators");
        }
        transport.frameHandler(this::onFrame);
    }

    /** Creates the WORLD communicator: every member of the job, ranked as in the rank table. */
    public Future<Communicator> world() {
        return onContext(() -> Future.succeededFuture(register(WORLD_CONTEXT, world.ranked())));
    }

    /**
     * Membership says {@code id} left: sends to it fail at once on every communicator; receives from it
     * (and from any source) fail once its frames to this node are all in, or after the departure grace.
     * When {@code id} is this node (its session expired), every operation fails at once.
     */
    public void memberFailed(NodeId id, String reason) {
        if (id.equals(self.id())) {
            close(reason);
            return;
        }
        runHere(() -> {
            if (departed.putIfAbsent(id, reason) == null) {
                outbound[worldRankOf(id)].fail(OutboundWindow.Failure.DEPARTED, reason);
                eachCommunicator(communicator -> communicator.destinationDeparted(id, reason));
                transport.awaitInboundEnd(world.member(worldRankOf(id)), departureGrace)
                        .onComplete(end -> context.runOnContext(w -> lastFramesIn(id, departed.get(id), end)));
            }
        });
    }

    /**
     * Failure detection decided that a member is gone: as {@link #memberFailed}, and remembers whether it failed
     * or left on purpose, so failures name the member that failed first. A member first taken for failed may
     * turn out to have left (its goodbye arrived after ZooKeeper's event): receives that fail from then on say so.
     */
    public void memberDeparted(Departure departure) {
        runHere(() -> {
            NodeId id = departure.member();
            Departure.Kind before = departureKinds.put(id, departure.kind());
            if (before == null && departure.kind() == Departure.Kind.FAILED) {
                failedInOrder.add(id);
            } else if (before == Departure.Kind.FAILED && departure.kind() == Departure.Kind.LEFT) {
                failedInOrder.remove(id);
                departed.replace(id, departure.reason());
            }
            memberFailed(id, departure.reason());
        });
    }

    /**
     * Turns on recovery: revocations go out through {@code monitor}, and {@link Communicator#agree} and
     * {@link Communicator#shrink()} decide through {@code zooKeeper} (the node's client, under the job's znode).
     */
    public void enableRecovery(FailureMonitor failureMonitor, CuratorFramework zooKeeper) {
        context.runOnContext(v -> {
            monitor = failureMonitor;
            agreement = new FaultTolerantAgreement(this, zooKeeper, job);
        });
    }

    /** Member {@code by} revoked communicator {@code contextId}, after the failure of WORLD rank {@code causeWorldRank} (-1: none). */
    public void revokedByPeer(int contextId, int causeWorldRank, NodeId by) {
        context.runOnContext(v -> {
            RevocationNotice notice = new RevocationNotice(worldRankOf(by), causeWorldRank);
            boolean found = false;
            for (GroupCommunicator communicator : communicators) {
                if (communicator.contextId() == contextId) {
                    found = true;
                    notice.applyTo(communicator);
                }
            }
            if (!found) {
                earlyRevocations.putIfAbsent(contextId, notice);
            }
        });
    }

    /** Fails every waiting receive and every later operation with {@code reason}. */
    public Future<Void> close(String reason) {
        return onContext(() -> {
            if (closedReason == null) {
                closedReason = reason;
                eachCommunicator(communicator -> communicator.close(reason));
                for (OutboundWindow window : outbound) {
                    window.fail(OutboundWindow.Failure.CLOSED, reason);
                }
            }
            return Future.succeededFuture();
        });
    }

    public Context context() {
        return context;
    }

    Transport transport() {
        return transport;
    }

    long jobKey() {
        return job.frameKey();
    }

    Member self() {
        return self;
    }

    int selfWorldRank() {
        return selfWorldRank;
    }

    int worldRankOf(NodeId id) {
        return world.rankOf(id).orElseThrow(() -> new IllegalArgumentException(
                "node " + id + " is not in the rank table of job " + job));
    }

    String nodeLabel() {
        return nodeLabel;
    }

    /** Why sends to {@code id} fail, or null when they do not. On the context only. */
    String sendFailureOf(NodeId id) {
        return closedReason != null && id.equals(self.id()) ? closedReason : departed.get(id);
    }

    /** Why receives from {@code id} fail, or null when they may still complete. On the context only. */
    String receiveFailureOf(NodeId id) {
        return closedReason != null && id.equals(self.id()) ? closedReason : failed.get(id);
    }

    /** Failed members in the order this node learned of them. On the context only. */
    List<NodeId> failedInOrder() {
        return failedInOrder;
    }

    /** Whether {@code id} left on purpose (said goodbye) rather than failed. On the context only. */
    boolean leftOnPurpose(NodeId id) {
        return departureKinds.get(id) == Departure.Kind.LEFT;
    }

    /** Tells the other members that {@code contextId} is revoked. On the context only. */
    void announceRevocation(int contextId, List<Member> members, int causeWorldRank) {
        if (monitor != null) {
            monitor.revoke(contextId, members, causeWorldRank);
        }
    }

    boolean hasAgreement() {
        return agreement != null;
    }

    /** The fault-tolerant agreement, once recovery is enabled. On the context only. */
    FaultTolerantAgreement agreement() {
        if (agreement == null) {
            throw new IllegalStateException("agree and shrink need the node's ZooKeeper client (CommunicatorRuntime.enableRecovery)");
        }
        return agreement;
    }

    /** Whether membership reported {@code id} gone (or, for this node, the runtime closed). */
    boolean hasDeparted(NodeId id) {
        return sendFailureOf(id) != null;
    }

    /** The context ids this node can give a new communicator. */
    ContextIdOffer contextIdOffer() {
        return ContextIdOffer.of(nextContextId, reusableContextIds);
    }

    /** Marks {@code ids} used (an agreement gave them to new communicators). */
    void claimContextIds(List<Integer> ids) {
        for (int id : ids) {
            reusableContextIds.remove(id);
            nextContextId = Math.max(nextContextId, id + 1);
        }
    }

    /** The credit window towards the node of WORLD rank {@code worldRank}. On the context only. */
    OutboundWindow outbound(int worldRank) {
        return outbound[worldRank];
    }

    /** A receive took (or a free discarded) what WORLD rank {@code worldRank} sent at {@code cost}. */
    void release(int worldRank, int cost) {
        if (worldRank != selfWorldRank) {
            inbound.release(worldRank, cost);
        }
    }

    /** Reserves room for a rendezvous body from WORLD rank {@code worldRank} fetched ahead of its receive. */
    boolean reserveFetch(int worldRank, int size) {
        return inbound.reserveFetch(worldRank, size);
    }

    /**
     * A body fetched ahead was received or dropped: its room goes back, and announcements that waited for room
     * are fetched on the next turn of the context (callers may be iterating their own fetches now).
     */
    void releaseFetch(int worldRank, int size) {
        inbound.releaseFetch(worldRank, size);
        if (!fetchAheadPassDue) {
            fetchAheadPassDue = true;
            context.runOnContext(v -> {
                fetchAheadPassDue = false;
                eachCommunicator(GroupCommunicator::fetchAheadWithRoom);
            });
        }
    }

    /** Removes the sends {@code which} selects from every window (their communicator is freed). */
    List<OutboundWindow.PendingSend> withdrawSends(Predicate<OutboundWindow.PendingSend> which) {
        List<OutboundWindow.PendingSend> withdrawn = new ArrayList<>();
        for (OutboundWindow window : outbound) {
            withdrawn.addAll(window.withdraw(which));
        }
        return withdrawn;
    }

    InboundBudget inbound() {
        return inbound;
    }

    FrameRouter router() {
        return router;
    }

    /** Frames this node rejected because their sender went beyond its credit. */
    long rejectedFrames() {
        return rejectedFrames;
    }

    /**
     * Runs {@code action} on every communicator of a snapshot: failing a communicator completes futures whose
     * callbacks may free communicators (here, synchronously), which a live iteration would not survive.
     */
    private void eachCommunicator(Consumer<GroupCommunicator> action) {
        List.copyOf(communicators).forEach(action);
    }

    /** {@code communicator} has been freed on every member: its id may be reused. On the context only. */
    void freed(GroupCommunicator communicator) {
        communicators.remove(communicator);
        router.unregister(communicator.contextId());
        reusableContextIds.add(communicator.contextId());
    }

    /** Creates a communicator with {@code members} (by rank) and routes its frames. On the context only. */
    GroupCommunicator register(int contextId, List<Member> members) {
        GroupCommunicator communicator = new GroupCommunicator(this, contextId, members,
                agreementKeys.next(contextId, members));
        communicators.add(communicator);
        communicator.routeThrough(router);
        RevocationNotice early = earlyRevocations.remove(contextId);
        if (early != null) {
            early.applyTo(communicator);
        }
        return communicator;
    }

    /** Runs communicator creations one after another (each starts when the previous one is complete). */
    <T> Future<T> serialized(Supplier<Future<T>> creation) {
        return onContext(() -> {
            Future<T> next = lastCreation.transform(previous -> creation.get());
            lastCreation = next;
            return next;
        });
    }

    /** Runs {@code action} on the context (at once when already there) and returns its future. */
    <T> Future<T> onContext(Supplier<Future<T>> action) {
        return OwnerContext.call(context, () -> guarded(action));
    }

    private void onFrame(Frame frame) {
        if (frame.job() != job.frameKey()) {
            router.handle(frame, Unrouted.DROP); // it logs the other job's frame
            return;
        }
        int source = frame.source();
        if (source < 0 || source >= outbound.length || source == selfWorldRank) {
            log.warn("dropped {}: its source is not another rank of this job's {} ranks", frame, outbound.length);
            return;
        }
        if (inboundEnded.contains(world.member(source).id())) {
            // Everything it wrote before leaving is in (or the grace ran out): a frame now is not one of
            // those, and must not reach a communicator that reused the id of one it knew.
            log.debug("dropped {}: rank {} has departed and its last frames are in", frame, source);
            return;
        }
        if (frame.context() == FlowProtocol.FLOW_CONTEXT) {
            flowFrame(frame);
            return;
        }
        int cost = FlowProtocol.cost(frame);
        if (!inbound.admit(source, cost)) {
            reject(frame, cost);
            return;
        }
        router.handle(frame, cost > 0 ? Unrouted.PARK : Unrouted.DROP);
    }

    private void flowFrame(Frame frame) {
        OutboundWindow window = outbound[frame.source()];
        if (frame.tag() == FlowProtocol.CREDIT_TAG && frame.payload().length() == 8
                && frame.payload().getLong(0) > 0) {
            window.grant(frame.payload().getLong(0));
        } else if (frame.tag() == FlowProtocol.REJECT_TAG) {
            String reason = frame.payload().toString(StandardCharsets.UTF_8);
            log.error("rank {} rejects this node's messages, so every send to it fails from now: {}", frame.source(),
                    reason);
            window.fail(OutboundWindow.Failure.REJECTED, reason);
        } else {
            log.warn("dropped {}: not a credit grant (tag {}, 8-byte positive count) nor a rejection (tag {})", frame,
                    FlowProtocol.CREDIT_TAG, FlowProtocol.REJECT_TAG);
        }
    }

    /** A frame beyond its sender's credit: dropped, counted, logged at most once a second, its sender told once. */
    private void reject(Frame frame, int cost) {
        rejectedFrames++;
        rejectedBytes += frame.payload().length();
        rejectsSinceLog++;
        String reason = "rank " + frame.source() + " sent beyond the " + inbound.window()
                + " bytes of credit this node grants it (it holds " + inbound.held(frame.source())
                + " bytes of its messages and frames for contexts not created here, and this frame costs " + cost
                + "); a Canopy node never does this unless its limits are tampered with";
        long now = System.nanoTime();
        if (lastRejectLog == 0 || now - lastRejectLog >= TimeUnit.SECONDS.toNanos(1)) {
            log.error("rejected {} frame(s) ({} in all, {} payload bytes), latest {}: {}", rejectsSinceLog,
                    rejectedFrames, rejectedBytes, frame, reason);
            lastRejectLog = now;
            rejectsSinceLog = 0;
        }
        if (!toldRejected[frame.source()]) {
            toldRejected[frame.source()] = true;
            transport.send(world.member(frame.source()), FlowProtocol.reject(job.frameKey(), selfWorldRank,
                    frame.source(), reason)).onFailure(e -> log.debug("could not tell rank {} of its rejection: {}",
                    frame.source(), e.toString()));
        }
    }

    private void sendGrant(int worldRank, long bytes) {
        if (departed.containsKey(world.member(worldRank).id())) {
            return;
        }
        transport.send(world.member(worldRank), FlowProtocol.credit(job.frameKey(), selfWorldRank, worldRank, bytes))
                .onFailure(e -> log.debug("could not grant {} bytes of credit to rank {}: {}", bytes, worldRank,
                        e.toString()));
    }

    /** A departed member's frames are all in, or the grace ran out: receives from it fail from now. */
    private void lastFramesIn(NodeId id, String reason, AsyncResult<InboundEnd> end) {
        log.info("receives from {} fail from now: {}", id, describe(end));
        inboundEnded.add(id);
        if (failed.putIfAbsent(id, reason) == null) {
            eachCommunicator(communicator -> communicator.sourceFailed(id, reason));
        }
    }

    private String describe(AsyncResult<InboundEnd> end) {
        if (end.failed()) {
            return "waiting for its connections to close failed (" + end.cause() + ")";
        }
        return switch (end.result()) {
            case CONNECTIONS_CLOSED -> "its connections to this node have closed, so all it sent has arrived";
            case TIMED_OUT -> "no connection of it to this node closed within the departure grace of "
                    + departureGrace.toMillis() + " ms (NodeOptions.departureGrace)";
            case TRANSPORT_CLOSED -> "this node's transport closed";
        };
    }

    /** A revocation as it arrived: who revoked, for whose failure (WORLD ranks, -1: none). */
    private record RevocationNotice(int byWorldRank, int causeWorldRank) {

        void applyTo(GroupCommunicator communicator) {
            int cause = causeWorldRank < 0 ? communicator.firstFailedRank() : communicator.rankOfWorld(causeWorldRank);
            communicator.revokeLocally(new CommunicatorRevokedException(communicator.contextId(),
                    communicator.rankOfWorld(byWorldRank), cause));
        }
    }

    /** Runs {@code action} now when on the context (so what follows sees its effect), else posts it there. */
    private void runHere(Runnable action) {
        if (Vertx.currentContext() == context) {
            action.run();
        } else {
            context.runOnContext(v -> action.run());
        }
    }

    private static <T> Future<T> guarded(Supplier<Future<T>> action) {
        try {
            return action.get();
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
    }
}
