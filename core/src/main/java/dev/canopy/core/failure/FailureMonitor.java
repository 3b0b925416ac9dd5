package dev.canopy.core.failure;

import dev.canopy.core.frame.Frame;
import dev.canopy.core.frame.FrameType;
import dev.canopy.core.membership.MembershipView;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeLogger;
import dev.canopy.core.transport.PeerUnavailableException;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.emulation.NanoClock;
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
 * its connection to this node closing without a goodbye, a heartbeat or other frame to it that cannot be
 * sent, silence beyond the heartbeat timeout ({@link HeartbeatDetector}), and its member znode vanishing.
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

    private final Context context;
    private final Vertx vertx;
    private final Transport port;
    private final long jobKey;
    private final MembershipView world;
    private final Member self;
    private final int selfWorldRank;
    private final HeartbeatSettings settings;
    private final HeartbeatDetector detector;
    private final NodeLogger log;
    private final Map<NodeAddress, NodeId> byAddress = new HashMap<>();

    // Owned by the context.
    private final Map<NodeId, Departure> departures = new HashMap<>();
    /** Failed members (not those that left), in the order this node learned of them. */
    private final List<NodeId> failedInOrder = new ArrayList<>();
    private final Set<NodeId> saidGoodbye = new HashSet<>();
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
        this.log = new NodeLogger(LoggerFactory.getLogger(FailureMonitor.class), label);
        world.ranked().forEach(member -> byAddress.put(member.address(), member.id()));
        world.departed().forEach(id -> departures.put(id, Departure.left(id, "it had left before this node joined")));
    }

    /** Starts heartbeats and watching; {@code onDeparture} hears of every member gone, once each. */
    public void start(Handler<Departure> onDeparture, RevocationHandler onRevocation) {
        context.runOnContext(v -> {
            departureHandler = Objects.requireNonNull(onDeparture, "onDeparture");
            revocationHandler = Objects.requireNonNull(onRevocation, "onRevocation");
            port.frameHandler(this::onFrame);
            port.inboundClosedHandler(this::onInboundClosed);
            sendHeartbeats();
            checkTimer = vertx.setPeriodic(detector.checkEveryMillis(), id -> checkOverdue());
        });
    }

    /** Membership reports {@code id}'s member znode deleted: a failure unless it said goodbye first. */
    public void memberZnodeDeleted(NodeId id) {
        context.runOnContext(v -> failed(id, Evidence.MEMBER_ZNODE_DELETED, ""));
    }

    /**
     * This node is leaving on purpose: stops heartbeats and tells every live member goodbye, listing the
     * failures it knows of (why it may be leaving). Completes once the goodbyes are written or after
     * {@code atMost}; never fails.
     */
    public Future<Void> goodbye(Duration atMost) {
        Promise<Void> done = Promise.promise();
        context.runOnContext(v -> {
            stop();
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

    /** Stops heartbeats and watching (the node closes). */
    public void stop() {
        context.runOnContext(v -> {
            stopped = true;
            if (heartbeatTimer != -1) {
                vertx.cancelTimer(heartbeatTimer);
            }
            if (checkTimer != -1) {
                vertx.cancelTimer(checkTimer);
            }
        });
    }

    private void sendHeartbeats() {
        heartbeatTimer = -1;
        if (stopped) {
            return;
        }
        Frame frame = frame(0, new LivenessMessage.Heartbeat());
        for (Member member : liveMembers()) {
            port.send(member, frame).onFailure(e -> {
                // A peer we cannot write to, after the transport's reconnect attempts; a full queue proves nothing.
                if (e instanceof PeerUnavailableException unavailable && !stopped) {
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

    private void onFrame(Frame frame) {
        if (frame.type() != FrameType.LIVENESS || frame.job() != jobKey || frame.source() < 0
                || frame.source() >= world.size() || frame.source() == selfWorldRank) {
            log.warn("dropped {}: not a liveness frame of this job from another member", frame);
            return;
        }
        LivenessMessage message;
        try {
            message = LivenessMessage.decode(frame, world.size());
        } catch (IllegalArgumentException e) {
            log.warn("dropped malformed {}: {}", frame, e.getMessage());
            return;
        }
        NodeId from = world.member(frame.source()).id();
        if (departures.containsKey(from)) {
            return;
        }
        if (message instanceof LivenessMessage.Goodbye goodbye) {
            leftCleanly(from, goodbye);
        } else if (message instanceof LivenessMessage.Revoke revoke) {
            detector.heard(from);
            revocationHandler.revoked(frame.context(), revoke.causeWorldRank(), from);
        } else {
            detector.heard(from);
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
        depart(Departure.left(from, causes.isEmpty() ? "it left the job"
                : "it left the job after " + causes.get(0) + " failed: " + departures.get(causes.get(0)).reason()));
    }

    private void onInboundClosed(NodeAddress address) {
        NodeId id = byAddress.get(address);
        if (id != null && !saidGoodbye.contains(id)) {
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
