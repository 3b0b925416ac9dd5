package dev.canopy.core.comm;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeLogger;
import dev.canopy.gridconfig.Level;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/** A communicator over a fixed list of members, sharing its node's {@link CommunicatorRuntime}. */
final class GroupCommunicator implements Communicator {

    private final CommunicatorRuntime runtime;
    private final int contextId;
    private final List<Member> members;
    private final int[] worldRanks;
    private final Map<Integer, Integer> rankOfWorld = new HashMap<>();
    private final int rank;
    private final RankChannel user = new RankChannel(this, FrameType.DATA);
    private final RankChannel collective = new RankChannel(this, FrameType.COLLECTIVE);
    private final RankChannel control = new RankChannel(this, FrameType.CONTROL);
    /** Set once {@link #free()} started; owned by the runtime's context. */
    private boolean freeing;
    /** Names this communicator's agreements in ZooKeeper ({@link AgreementKeys}). */
    private final String agreementKey;
    private final RevocableChannel userView;
    private final RevocableChannel collectiveView;
    /** Written on the runtime's context; volatile so that {@link #isRevoked()} may read it from any thread. */
    private volatile CommunicatorRevokedException revocation;
    // Owned by the runtime's context.
    /** Agreements (agree and shrink) started on this communicator; they number their znodes. */
    private int agreements;

    GroupCommunicator(CommunicatorRuntime runtime, int contextId, List<Member> members, String agreementKey) {
        this.runtime = runtime;
        this.contextId = contextId;
        this.agreementKey = agreementKey;
        this.members = List.copyOf(members);
        this.worldRanks = new int[members.size()];
        int selfRank = -1;
        for (int r = 0; r < members.size(); r++) {
            worldRanks[r] = runtime.worldRankOf(members.get(r).id());
            rankOfWorld.put(worldRanks[r], r);
            if (members.get(r).id().equals(runtime.self().id())) {
                selfRank = r;
            }
        }
        if (selfRank < 0) {
            throw new IllegalArgumentException("communicator " + contextId + " does not contain this node "
                    + runtime.self().id());
        }
        this.rank = selfRank;
        this.userView = new RevocableChannel(user, runtime, () -> revocation);
        this.collectiveView = new RevocableChannel(collective, runtime, () -> revocation);
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return members.size();
    }

    @Override
    public int contextId() {
        return contextId;
    }

    @Override
    public Member member(int r) {
        Objects.checkIndex(r, members.size());
        return members.get(r);
    }

    @Override
    public List<Member> members() {
        return members;
    }

    @Override
    public Future<Void> send(int destination, int tag, Buffer payload) {
        return userView.send(destination, tag, payload);
    }

    @Override
    public Future<Message> receive(int source, int tag) {
        return userView.receive(source, tag);
    }

    @Override
    public PointToPoint collectiveChannel() {
        return collectiveView;
    }

    @Override
    public Future<Communicator> split(int color, int key) {
        return runtime.serialized(() -> unlessFreed(() -> CommunicatorAgreement.split(this, color, key)));
    }

    @Override
    public Future<Communicator> splitByLevel(Level level) {
        Objects.requireNonNull(level, "level");
        // Every member computes the same color: the index of its group key among the sorted keys.
        List<String> keys = members.stream().map(m -> m.coordinates().groupKey(level)).distinct().sorted().toList();
        int color = keys.indexOf(runtime.self().coordinates().groupKey(level));
        return split(color, rank);
    }

    @Override
    public Future<Communicator> shrink() {
        return runtime.serialized(() -> unlessFreed(() -> runtime.hasAgreement()
                ? runtime.agreement().shrink(this, agreements++) : CommunicatorAgreement.shrink(this)));
    }

    @Override
    public Future<Void> free() {
        if (contextId == CommunicatorRuntime.WORLD_CONTEXT) {
            return Future.failedFuture(new IllegalStateException("WORLD cannot be freed; it lives as long as the node"
                    + " is in the job"));
        }
        return runtime.serialized(() -> unlessFreed(() -> {
            freeing = true;
            return CommunicatorAgreement.free(this);
        }));
    }

    @Override
    public Future<Void> revoke() {
        return runtime.onContext(() -> {
            if (revocation == null) {
                int cause = firstFailedRank();
                revokeLocally(new CommunicatorRevokedException(contextId, rank, cause));
                runtime.announceRevocation(contextId, members, cause < 0 ? -1 : worldRanks[cause]);
            }
            return Future.succeededFuture();
        });
    }

    @Override
    public boolean isRevoked() {
        return revocation != null;
    }

    @Override
    public Future<Boolean> agree(boolean flag) {
        return runtime.serialized(() -> unlessFreed(() -> runtime.agreement().agree(this, agreements++, flag)));
    }

    @Override
    public Context context() {
        return runtime.context();
    }

    @Override
    public String toString() {
        return "Communicator[context " + contextId + ", rank " + rank + " of " + members.size() + "]";
    }

    String agreementKey() {
        return agreementKey;
    }

    CommunicatorRuntime runtime() {
        return runtime;
    }

    RankChannel control() {
        return control;
    }

    int worldRank(int r) {
        return worldRanks[r];
    }

    /** This communicator's rank of a WORLD rank, -1 when that node is not a member. */
    int rankOfWorld(int worldRank) {
        return rankOfWorld.getOrDefault(worldRank, -1);
    }

    /** Why sends to rank {@code r} fail, or null when they do not. On the context only. */
    RankFailedException sendFailureOf(int r) {
        NodeId id = members.get(r).id();
        return failure(r, id, runtime.sendFailureOf(id));
    }

    /** Why receives from rank {@code r} fail, or null when they may still complete. On the context only. */
    RankFailedException receiveFailureOf(int r) {
        NodeId id = members.get(r).id();
        return failure(r, id, runtime.receiveFailureOf(id));
    }

    /** Whether rank {@code r} is still a member (membership has not reported it gone). */
    boolean isAlive(int r) {
        return !runtime.hasDeparted(members.get(r).id());
    }

    /** Free has started: user and collective operations fail from now, the control channel agrees on the free. */
    void stopUserTraffic() {
        IllegalStateException failure = freedFailure();
        user.free(failure);
        collective.free(failure);
    }

    /** Every member has stopped sending on this context: release it for reuse. */
    void release() {
        control.free(freedFailure());
        runtime.freed(this);
    }

    /** Membership reported {@code id} gone: rendezvous sends to it fail. */
    void destinationDeparted(NodeId id, String reason) {
        for (int r = 0; r < members.size(); r++) {
            if (members.get(r).id().equals(id)) {
                RankFailedException failure = new RankFailedException(r, id, reason);
                user.destinationDeparted(r, failure);
                collective.destinationDeparted(r, failure);
                control.destinationDeparted(r, failure);
            }
        }
    }

    /** Fetch budget was freed: queued announcements that waited for room have their bodies fetched ahead. */
    void fetchAheadWithRoom() {
        user.fetchAheadWithRoom();
        collective.fetchAheadWithRoom();
        control.fetchAheadWithRoom();
    }

    /** Messages and announcements waiting in the unexpected queues of this communicator. */
    int queuedMessages() {
        return user.queuedMessages() + collective.queuedMessages() + control.queuedMessages();
    }

    /** Queued messages that carry their payload, in the user channel (for tests and diagnostics). */
    int queuedUserPayloads() {
        return user.queuedPayloads();
    }

    /** Rendezvous bodies of the user channel asked for ahead of their receives and still on their way. */
    int userFetchesInFlight() {
        return user.fetchesInFlight();
    }

    void routeThrough(FrameRouter router) {
        router.register(contextId, FrameType.DATA, user::accept);
        router.register(contextId, FrameType.COLLECTIVE, collective::accept);
        router.register(contextId, FrameType.CONTROL, control::accept);
    }

    /** Receives from {@code id}, and from any source, fail; see {@link CommunicatorRuntime}. */
    void sourceFailed(NodeId id, String reason) {
        for (int r = 0; r < members.size(); r++) {
            if (members.get(r).id().equals(id)) {
                RankFailedException failure = failure(r, id, reason);
                user.sourceFailed(r, failure);
                collective.sourceFailed(r, failure);
                control.sourceFailed(r, failure);
            }
        }
    }

    void close(String reason) {
        RankFailedException failure = new RankFailedException(rank, runtime.self().id(), reason);
        user.close(failure);
        collective.close(failure);
        control.close(failure);
    }

    void logDropped(Frame frame, String why) {
        new NodeLogger(LoggerFactory.getLogger(GroupCommunicator.class), runtime::nodeLabel)
                .warn("dropped {} on context {}: {}", frame, contextId, why);
    }

    private <T> Future<T> unlessFreed(Supplier<Future<T>> operation) {
        return freeing ? Future.failedFuture(freedFailure()) : operation.get();
    }

    private IllegalStateException freedFailure() {
        return new IllegalStateException("communicator " + contextId + " (rank " + rank + " of " + members.size()
                + ") has been freed");
    }

    /** Another member revoked this communicator (or this one did): pending and later operations fail. On the context. */
    void revokeLocally(CommunicatorRevokedException revoked) {
        if (revocation == null) {
            revocation = revoked;
            user.close(revoked);
            collective.close(revoked);
        }
    }

    /** The rank of this communicator that failed first as this node knows it, -1 when none failed. */
    int firstFailedRank() {
        for (NodeId id : runtime.failedInOrder()) {
            int r = rankOfWorld(runtime.worldRankOf(id));
            if (r >= 0) {
                return r;
            }
        }
        return -1;
    }

    /** Rank {@code r} fails for {@code reason}; its root cause is the first failure when {@code r} left on purpose. */
    private RankFailedException failure(int r, NodeId id, String reason) {
        if (reason == null) {
            return null;
        }
        int rootCause = runtime.leftOnPurpose(id) ? firstFailedRank() : -1;
        return new RankFailedException(r, id, reason, rootCause < 0 ? r : rootCause);
    }
}
