package dev.canopy.core.internal.failure;

import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.internal.membership.MembershipView;
import dev.canopy.core.node.HeartbeatSettings;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeLogger;
import dev.canopy.core.transport.Datagram;
import dev.canopy.core.transport.PeerUnavailableException;
import dev.canopy.core.transport.Transport;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import org.slf4j.LoggerFactory;

/**
 * Decides, for one node of a started job, when another member has failed, from all the evidence there is:
 * its connection to this node closing without a goodbye, a heartbeat frame to it that cannot be sent,
 * silence beyond the heartbeat timeout ({@link HeartbeatDetector}), and its member znode vanishing.
 * Heartbeats go both ways each period: as a datagram, which times them (it never waits behind the data
 * queued on a connection, so a busy link is not a silent one), and as a frame on the connection, which keeps
 * a connection open from every member to every other (so a crash resets one) and proves it still takes writes.
 * A member znode vanishing is only a suspicion until the authenticated transport confirms it: the member
 * fails unless it is heard from (a heartbeat, which only a holder of the job secret can send from its
 * address) between one heartbeat period and {@link #ZNODE_CONFIRMATION_PERIODS} periods after; if it is, it
 * stays a member (someone with rights over the job's znodes, a ZooKeeper administrator say, deleted the znode
 * of a live member, which re-creates it). A member whose own session ended stops its heartbeats, so the
 * suspicion is confirmed by its silence, but only silence while this node hears other members counts
 * ({@link ZnodeSuspicions}): a starved or paused node may fire its window timer before it reads heartbeats that
 * wait in its sockets.
 * The first evidence decides; later evidence about the same member changes nothing. A member that says
 * goodbye before it closes has left, not failed, and the members its goodbye lists as failed (why it left)
 * are failures here too: so the failure this node reports is the one that happened first.
 *
 * <p>Every departure goes to the listener once. Revocations of communicators travel on the same frames.
 *
 * <p>Owned by {@code context}; public methods may be called from any thread.
 */
public final class FailureMonitor {

    /** A member revoked communicator {@code context}; {@code causeWorldRank} is -1 when it named no failure. */
    @FunctionalInterface
    public interface RevocationHandler {
        void revoked(int context, int causeWorldRank, NodeId by);
    }

    /**
     * The longest a connection to a failed member stays open for the notice that it is excluded. A notice to a
     * live member is written in microseconds; on a loaded machine it took over 100 ms, and a connection closed
     * before it made the excluded member blame this node. A dead member costs nothing: its writes fail or land
     * in the socket buffer at once.
     */
    static final long EXCLUSION_NOTICE_MS = 1000;
    /**
     * How many heartbeat periods a member whose znode was deleted has to be heard from before it counts as failed.
     * Heartbeats leave every period (with 20 % jitter by default), so a live member sends two or more after the
     * first period, which lets any heartbeat already in flight when the znode went arrive first.
     */
    static final int ZNODE_CONFIRMATION_PERIODS = 4;
    /** How the transport's {@link PeerUnavailableException} says that a peer could not be connected to at all. */
    private static final String CANNOT_CONNECT = "cannot connect";

    private final Context context;
    private final Vertx vertx;
    private final Transport port;
    private final long jobKey;
    private final MembershipView world;
    private final Member self;
    private final int selfWorldRank;
    private final HeartbeatSettings settings;
    private final HeartbeatDetector detector;
    private final NanoClock clock;
    private final NodeLogger log;
    private final Map<NodeAddress, NodeId> byAddress = new HashMap<>();

    // Owned by the context.
    private final Map<NodeId, Departure> departures = new HashMap<>();
    /** Failed members (not those that left), in the order this node learned of them. */
    private final List<NodeId> failedInOrder = new ArrayList<>();
    private final Set<NodeId> saidGoodbye = new HashSet<>();
    /** Members that told this node they consider it failed: their closing connections say nothing of them. */
    private final Set<NodeId> excludedBy = new HashSet<>();
    /** Members whose znode was deleted, not yet confirmed failed or alive. */
    private final ZnodeSuspicions znodeDeleted;
    /** The window timer of each suspect in {@link #znodeDeleted}. */
    private final Map<NodeId, Long> windowTimers = new HashMap<>();
    private Handler<Departure> departureHandler = d -> { };
    private RevocationHandler revocationHandler = (c, r, by) -> { };
    private long heartbeatTimer = -1;
    private long checkTimer = -1;
    private boolean stopped;

    /**
     * @param port  the node's transport for {@link FrameType#LIVENESS} frames; this monitor takes its handlers
     * @param clock the detector's clock (tests inject one)
     */
    public FailureMonitor(Context context, Transport port, long jobKey, MembershipView world, NodeId self,
            HeartbeatSettings settings, NanoClock clock, String label) {
        this.context = Objects.requireNonNull(context, "context");
        this.vertx = context.owner();
        this.port = Objects.requireNonNull(port, "port");
        this.jobKey = jobKey;
        this.world = Objects.requireNonNull(world, "world");
        this.selfWorldRank = world.rankOf(self).orElseThrow(() -> new IllegalArgumentException(
                "node " + self + " is not in the rank table"));
        this.self = world.member(selfWorldRank);
        this.settings = Objects.requireNonNull(settings, "settings");
        this.detector = new HeartbeatDetector(settings, clock, new SplittableRandom(self.toString().hashCode()));
        this.clock = Objects.requireNonNull(clock, "clock");
        this.znodeDeleted = new ZnodeSuspicions(settings, clock);
        this.log = new NodeLogger(LoggerFactory.getLogger(FailureMonitor.class), label);
        world.ranked().forEach(member -> byAddress.put(member.address(), member.id()));
        world.departed().forEach(id -> departures.put(id, Departure.left(id, "it had left before this node joined")));
    }

    /** Starts heartbeats and watching; {@code onDeparture} hears of every member gone, once each. */
    public void start(Handler<Departure> onDeparture, RevocationHandler onRevocation) {
        start(onDeparture, onRevocation, true);
    }

    /**
     * As {@link #start}, but the first heartbeats leave one (jittered) period later instead of at once. Each first
     * heartbeat opens a connection to its member (a TCP connect and the handshake's crypto); a communicator being
     * made, whose creation itself sends its first frames at that moment (an inter-communicator's, where every member
     * of two groups would otherwise connect to every other at once), keeps those connections off its critical path.
     * Watching starts at once: frames, a closed connection and heartbeats from others are handled from here on.
     */
    public void startHeartbeatsAfterAPeriod(Handler<Departure> onDeparture, RevocationHandler onRevocation) {
        start(onDeparture, onRevocation, false);
    }

    private void start(Handler<Departure> onDeparture, RevocationHandler onRevocation, boolean heartbeatNow) {
        context.runOnContext(v -> {
            departureHandler = Objects.requireNonNull(onDeparture, "onDeparture");
            revocationHandler = Objects.requireNonNull(onRevocation, "onRevocation");
            port.frameHandler(this::onFrame);
            port.datagramHandler(this::onDatagram);
            port.inboundClosedHandler(this::onInboundClosed);
            if (heartbeatNow) {
                sendHeartbeats();
            } else {
                heartbeatTimer = vertx.setTimer(detector.nextDelayMillis(), id -> sendHeartbeats());
            }
            checkTimer = vertx.setPeriodic(detector.checkEveryMillis(), id -> checkOverdue());
        });
    }

    /**
     * Membership reports {@code id}'s member znode deleted: a failure unless it said goodbye first, or it is heard
     * from over the transport after that (see the class comment).
     */
    public void memberZnodeDeleted(NodeId id) {
        if (Vertx.currentContext() == context) {
            suspect(id);
        } else {
            context.runOnContext(v -> suspect(id));
        }
    }

    private void suspect(NodeId id) {
        if (stopped || id.equals(self.id()) || departures.containsKey(id) || !world.contains(id)
                || saidGoodbye.contains(id) || !znodeDeleted.suspect(id)) {
            return;
        }
        long window = settings.period().toMillis() * ZNODE_CONFIRMATION_PERIODS;
        windowTimers.put(id, vertx.setTimer(window, t -> windowEnded(id, window)));
        log.info("{}'s member znode was deleted; it counts as failed unless it is heard from within {} ms", id, window);
    }

    private void windowEnded(NodeId id, long window) {
        windowTimers.remove(id);
        switch (znodeDeleted.windowEnded(id)) {
            case FAILED -> failed(id, Evidence.MEMBER_ZNODE_DELETED, "and nothing came from it over the transport for "
                    + window + " ms");
            case UNDECIDED -> {
                log.debug("{}'s znode window ended, but this node heard no other member lately: waiting on", id);
                windowTimers.put(id, vertx.setTimer(settings.period().toMillis(), t -> windowEnded(id, window)));
            }
            case NOT_SUSPECTED -> { }
        }
    }

    /** An authenticated heartbeat (or other liveness frame) from {@code id}. */
    private void heard(NodeId id) {
        detector.heard(id);
        if (znodeDeleted.heard(id)) {
            cancelWindow(id);
            log.warn("{}'s member znode was deleted, but it still answers over the authenticated transport: it stays a"
                    + " member (someone with rights over the job's znodes deleted it; the member re-creates it)", id);
        }
    }

    private void cancelWindow(NodeId id) {
        Long timer = windowTimers.remove(id);
        if (timer != null) {
            vertx.cancelTimer(timer);
        }
    }

    /**
     * This node is leaving on purpose: stops heartbeats and tells every live member goodbye, listing the
     * failures it knows of (why it may be leaving). Completes once the goodbyes are written or after
     * {@code atMost}; never fails.
     */
    public Future<Void> goodbye(Duration atMost) {
        Promise<Void> done = Promise.promise();
        context.runOnContext(v -> {
            stopNow();
            List<Integer> failedRanks = failedInOrder.stream().map(id -> world.rankOf(id).orElseThrow()).toList();
            Frame frame = frame(0, new LivenessMessage.Goodbye(failedRanks));
            List<Future<Void>> sent = liveMembers().stream().map(member -> port.send(member, frame)).toList();
            long timer = vertx.setTimer(Math.max(1, atMost.toMillis()), id -> done.tryComplete());
            Future.join(sent).onComplete(r -> {
                vertx.cancelTimer(timer);
                done.tryComplete();
            });
        });
        return done.future();
    }

    /** Tells {@code members} (except this node and those gone) that communicator {@code contextId} is revoked. */
    public void revoke(int contextId, List<Member> members, int causeWorldRank) {
        context.runOnContext(v -> {
            Frame frame = frame(contextId, new LivenessMessage.Revoke(causeWorldRank));
            for (Member member : members) {
                if (!member.id().equals(self.id()) && !departures.containsKey(member.id())) {
                    port.send(member, frame).onFailure(e -> log.debug("revocation of context {} did not reach {}: {}",
                            contextId, member.id(), e.toString()));
                }
            }
        });
    }

    /**
     * Tells {@code member}, which this node has found failed, before this node closes its connection to it: so a
     * member that is alive after all (its session expired, a false suspicion) does not take that close for this
     * node's failure. Completes once written, or after at most {@value #EXCLUSION_NOTICE_MS} ms; never fails.
     */
    public Future<Void> tellExcluded(NodeId member) {
        Promise<Void> told = Promise.promise();
        context.runOnContext(v -> {
            long timer = vertx.setTimer(EXCLUSION_NOTICE_MS, id -> told.tryComplete());
            port.send(world.member(world.rankOf(member).orElseThrow()), frame(0, new LivenessMessage.Excluded()))
                    .onComplete(r -> {
                        vertx.cancelTimer(timer);
                        told.tryComplete();
                    });
        });
        return told.future();
    }

    /** Stops heartbeats and watching (the node closes). */
    public void stop() {
        context.runOnContext(v -> stopNow());
    }

    private void stopNow() {
        stopped = true;
        if (heartbeatTimer != -1) {
            vertx.cancelTimer(heartbeatTimer);
            heartbeatTimer = -1;
        }
        if (checkTimer != -1) {
            vertx.cancelTimer(checkTimer);
            checkTimer = -1;
        }
        windowTimers.values().forEach(vertx::cancelTimer);
        windowTimers.clear();
    }

    private void sendHeartbeats() {
        heartbeatTimer = -1;
        if (stopped) {
            return;
        }
        Frame frame = frame(0, new LivenessMessage.Heartbeat());
        for (Member member : liveMembers()) {
            // The datagram times the heartbeat: it never waits behind megabytes queued on the connection.
            port.sendDatagram(member, frame).onFailure(e -> log.debug("heartbeat datagram to {} not sent: {}",
                    member.id(), e.toString()));
            // The frame keeps a connection open to every member (so its reset is seen) and tests that it takes writes.
            port.send(member, frame).onFailure(e -> {
                // Only a member that cannot be connected to is evidence: a lost connection is seen as such, a
                // full queue proves nothing, and this node's own transport closing says nothing of the member.
                if (e instanceof PeerUnavailableException unavailable && unavailable.reason().startsWith(CANNOT_CONNECT)) {
                    failed(member.id(), Evidence.SEND_FAILED, unavailable.reason());
                }
            });
        }
        heartbeatTimer = vertx.setTimer(detector.nextDelayMillis(), id -> sendHeartbeats());
    }

    private void checkOverdue() {
        if (!stopped) {
            detector.overdue().forEach(id -> failed(id, Evidence.HEARTBEAT_MISSED,
                    settings.timeout().toMillis() + " ms, NodeOptions.heartbeat"));
        }
    }

    /** A heartbeat by UDP; it must come from the member's own UDP port. Nothing else travels by datagram. */
    private void onDatagram(Datagram datagram) {
        LivenessMessage message = validated(datagram.frame());
        if (message instanceof LivenessMessage.Heartbeat) {
            Member from = world.member(datagram.frame().source());
            if (datagram.sender().port() == from.address().udpPort() && !departures.containsKey(from.id())) {
                heard(from.id());
            } else {
                log.debug("ignored a heartbeat datagram for {} from {}", from.id(), datagram.sender());
            }
        } else if (message != null) {
            log.warn("dropped {} from {}: only heartbeats travel by datagram", datagram.frame(), datagram.sender());
        }
    }

    /** The message of a liveness frame of this job from another member; null (logged) for anything else. */
    private LivenessMessage validated(Frame frame) {
        if (frame.type() != FrameType.LIVENESS || frame.job() != jobKey || frame.source() < 0
                || frame.source() >= world.size() || frame.source() == selfWorldRank) {
            log.warn("dropped {}: not a liveness frame of this job from another member", frame);
            return null;
        }
        try {
            return LivenessMessage.decode(frame, world.size());
        } catch (IllegalArgumentException e) {
            log.warn("dropped malformed {}: {}", frame, e.getMessage());
            return null;
        }
    }

    private void onFrame(Frame frame) {
        LivenessMessage message = validated(frame);
        if (message == null) {
            return;
        }
        NodeId from = world.member(frame.source()).id();
        Departure known = departures.get(from);
        if (known != null) {
            if (message instanceof LivenessMessage.Goodbye && known.evidence() == Evidence.MEMBER_ZNODE_DELETED) {
                // ZooKeeper's event overtook the goodbye: it left after all.
                saidGoodbye.add(from);
                failedInOrder.remove(from);
                Departure left = Departure.left(from, "it left the job");
                departures.put(from, left);
                log.info("{} left after all: its goodbye came after its member znode went", from);
                departureHandler.handle(left);
            }
            return;
        }
        if (message instanceof LivenessMessage.Excluded) {
            excludedBy.add(from);
            log.warn("{} considers this node failed and closes its connection to it", from);
        } else if (message instanceof LivenessMessage.Goodbye goodbye) {
            leftCleanly(from, goodbye);
        } else if (message instanceof LivenessMessage.Revoke revoke) {
            heard(from);
            revocationHandler.revoked(frame.context(), revoke.causeWorldRank(), from);
        } else {
            heard(from);
        }
    }

    private void leftCleanly(NodeId from, LivenessMessage.Goodbye goodbye) {
        saidGoodbye.add(from);
        List<NodeId> causes = new ArrayList<>();
        for (int rank : goodbye.failedWorldRanks()) {
            NodeId cause = world.member(rank).id();
            if (!cause.equals(self.id())) {
                failed(cause, Evidence.REPORTED_BY_PEER, "by " + from + ", before it left");
                causes.add(cause);
            }
        }
        depart(Departure.left(from, causes.isEmpty() ? "it left the job" : "it left the job after " + causes.get(0)
                + " failed" + reasonOf(causes.get(0))));
    }

    /**
     * ": " and why {@code member} is gone as this node knows it; empty when this node has no record of it (it is
     * leaving itself and took no more evidence, so the report of a leaver did not make it a departure here).
     */
    private String reasonOf(NodeId member) {
        Departure known = departures.get(member);
        return known == null ? "" : ": " + known.reason();
    }

    private void onInboundClosed(NodeAddress address) {
        NodeId id = byAddress.get(address);
        if (id != null && !saidGoodbye.contains(id) && !excludedBy.contains(id)) {
            failed(id, Evidence.CONNECTION_LOST, "");
        }
    }

    private void failed(NodeId id, Evidence evidence, String detail) {
        // A node that is leaving closes connections and sees others close: none of that is evidence.
        if (stopped || id.equals(self.id()) || departures.containsKey(id) || !world.contains(id)) {
            return;
        }
        if (saidGoodbye.contains(id)) {
            return;
        }
        failedInOrder.add(id);
        depart(Departure.failed(id, evidence, detail));
    }

    private void depart(Departure departure) {
        if (departures.putIfAbsent(departure.member(), departure) != null) {
            return;
        }
        znodeDeleted.forget(departure.member());
        cancelWindow(departure.member());
        detector.forget(departure.member());
        log.info("{} {}: {}", departure.member(), departure.kind() == Departure.Kind.FAILED ? "failed" : "left",
                departure.reason());
        departureHandler.handle(departure);
    }

    private List<Member> liveMembers() {
        return world.ranked().stream()
                .filter(member -> !member.id().equals(self.id()) && !departures.containsKey(member.id()))
                .toList();
    }

    private Frame frame(int contextId, LivenessMessage message) {
        return new Frame(FrameType.LIVENESS, jobKey, contextId, 0, selfWorldRank, Frame.UNKNOWN_RANK, 0, 0,
                LivenessMessage.encode(message));
    }
}
