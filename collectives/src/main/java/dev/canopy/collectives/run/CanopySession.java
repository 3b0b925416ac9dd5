package dev.canopy.collectives.run;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.BlockingCollectives;
import dev.canopy.collectives.Collectives;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.membership.ZooKeeperSession;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
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
 * same point of its sequence of collectives, so every collective runs on one epoch on every member.
 */
public final class CanopySession implements AutoCloseable {

    private final Vertx vertx;
    private final CanopyNode node;
    private final Communicator world;
    private final GridModel grid;
    private final Optional<LivePlans> livePlans;
    // Replaced at a switch point; the collectives are immutable, so a volatile reference publishes them.
    private volatile Collectives collectives;
    private final AtomicReference<Future<Void>> ending = new AtomicReference<>();

    /** @param configured the collectives on the level file's plan, which they follow until the first switch point */
    CanopySession(Vertx vertx, CanopyNode node, Communicator world, GridModel grid, Collectives configured,
            Optional<LivePlans> livePlans) {
        this.vertx = vertx;
        this.node = node;
        this.world = world;
        this.grid = grid;
        this.livePlans = livePlans;
        this.collectives = configured;
        FatalErrors.watch(vertx);
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

    /** How log lines name this process: {@code site/host#rank}. */
    public String label() {
        return node.label();
    }

    /**
     * Finishes like {@code MPI_Finalize}: a barrier with every member, so no member leaves while another
     * still waits for a message from it, then leaves the job and stops this process's event loops.
     * Blocks until done. A failed barrier (a member died) does not keep this member from leaving.
     */
    @Override
    public void close() {
        Blocking.await(end(() -> collectives.barrier().transform(finished -> closeBroadcastPath())
                .transform(closed -> closeLivePlans())
                .transform(stopped -> node.close()).eventually(() -> vertx.close())));
    }

    /** Leaves the job at once, without waiting for the others (after a failure); blocks until done. */
    public void leave() {
        Blocking.await(end(() -> closeBroadcastPath().transform(closed -> closeLivePlans())
                .transform(stopped -> node.close()).eventually(() -> vertx.close())));
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

    /** The multicast layer under bcast, if any: its fabric endpoint and buffers. */
    private Future<Void> closeBroadcastPath() {
        collectives.broadcastPath().close();
        return Future.succeededFuture();
    }

    private Future<Void> closeLivePlans() {
        return livePlans.map(LivePlans::close).orElse(Future.succeededFuture());
    }
}
