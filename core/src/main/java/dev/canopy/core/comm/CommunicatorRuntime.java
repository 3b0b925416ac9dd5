package dev.canopy.core.comm;

import dev.canopy.core.membership.MembershipView;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.transport.OwnerContext;
import dev.canopy.core.transport.Transport;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The communicators of one node in one started job: routes incoming frames to them, keeps which
 * members have failed, allocates context ids and serialises communicator creation.
 *
 * <p>Context ids: WORLD is {@value #WORLD_CONTEXT}. Each node keeps {@code nextContextId}, above every
 * id it uses. A split or shrink gathers every participant's {@code nextContextId}; the children get
 * {@code max + i} for the i-th color in ascending color order, and every participant moves its
 * {@code nextContextId} past them. So a new id is above every id any participant already uses: no
 * node ever has two communicators with one id. Creation calls (split, splitByLevel, shrink) are
 * serialised per node, and, as for MPI's blocking collectives, must be called in the same order on
 * every node of overlapping communicators.
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

    // Owned by the context.
    private final Map<NodeId, String> failed = new HashMap<>();
    private final List<GroupCommunicator> communicators = new ArrayList<>();
    private int nextContextId = WORLD_CONTEXT + 1;
    private Future<?> lastCreation = Future.succeededFuture();
    private String closedReason;

    /**
     * @param world the rank table of the started job; ranks in it are the WORLD ranks frames carry
     * @param transport a started transport; this runtime becomes its frame handler
     */
    public CommunicatorRuntime(Context context, Transport transport, JobId job, MembershipView world, NodeId self,
            String nodeLabel) {
        this.context = Objects.requireNonNull(context, "context");
        this.transport = Objects.requireNonNull(transport, "transport");
        this.job = Objects.requireNonNull(job, "job");
        this.world = Objects.requireNonNull(world, "world");
        this.selfWorldRank = world.rankOf(self).orElseThrow(() -> new IllegalArgumentException(
                "node " + self + " is not in the rank table of job " + job));
        this.self = world.member(selfWorldRank);
        this.nodeLabel = nodeLabel;
        this.router = new FrameRouter(job.frameKey(), nodeLabel);
        world.departed().forEach(id -> failed.put(id, "it had left before this node started its communicators"));
        transport.frameHandler(router);
    }

    /** Creates the WORLD communicator: every member of the job, ranked as in the rank table. */
    public Future<Communicator> world() {
        return onContext(() -> Future.succeededFuture(register(WORLD_CONTEXT, world.ranked())));
    }

    /**
     * Membership says {@code id} left: sends to it fail, and receives waiting for it fail, on every
     * communicator. When {@code id} is this node (its session expired), every operation fails.
     */
    public void memberFailed(NodeId id, String reason) {
        if (id.equals(self.id())) {
            close(reason);
            return;
        }
        context.runOnContext(v -> {
            if (failed.putIfAbsent(id, reason) == null) {
                communicators.forEach(communicator -> communicator.memberFailed(id, reason));
            }
        });
    }

    /** Fails every waiting receive and every later operation with {@code reason}. */
    public Future<Void> close(String reason) {
        return onContext(() -> {
            if (closedReason == null) {
                closedReason = reason;
                communicators.forEach(communicator -> communicator.close(reason));
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

    /** Why {@code id} is unusable, or null when it is alive. On the context only. */
    String failureOf(NodeId id) {
        if (closedReason != null && id.equals(self.id())) {
            return closedReason;
        }
        return failed.get(id);
    }

    boolean hasFailed(NodeId id) {
        return failureOf(id) != null;
    }

    int proposeContextId() {
        return nextContextId;
    }

    void reserveContextIdsBelow(int limit) {
        nextContextId = Math.max(nextContextId, limit);
    }

    /** Creates a communicator with {@code members} (by rank) and routes its frames. On the context only. */
    GroupCommunicator register(int contextId, List<Member> members) {
        GroupCommunicator communicator = new GroupCommunicator(this, contextId, members);
        communicators.add(communicator);
        communicator.routeThrough(router);
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

    private static <T> Future<T> guarded(Supplier<Future<T>> action) {
        try {
            return action.get();
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
    }
}
