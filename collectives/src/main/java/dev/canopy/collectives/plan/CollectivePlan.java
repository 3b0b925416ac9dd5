package dev.canopy.collectives.plan;

import dev.canopy.collectives.internal.engine.RootedTree;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.List;
import java.util.Optional;

/**
 * The trees a communicator's collectives follow, one per root, under an epoch. Every member must
 * run a collective with the same plan; frames carry the epoch and a mismatch fails the collective.
 */
public interface CollectivePlan {

    /** Identifies this plan; equal epochs mean equal trees on every member. */
    long epoch();

    /** The tree over all ranks of the communicator, rooted at {@code root}. */
    RootedTree tree(int root);

    /**
     * {@link #tree(int)}, for a collective that runs on {@code context} (an event loop): a plan whose trees take
     * long to compute computes them on a worker thread; the future completes on {@code context}. By default the
     * tree is taken at once (plans whose trees are given, not planned).
     */
    default Future<RootedTree> treeOffLoop(int root, Context context) {
        return Future.succeededFuture(tree(root));
    }

    /**
     * The one-way latency in ms from rank {@code from} to rank {@code to} that this plan was computed
     * from (configured, or the leader's forecasts for a live plan); positive infinity where nothing
     * predicts that link, 0 from a rank to itself. Equal epochs mean equal latencies on every member.
     */
    double oneWayMs(int from, int to);

    /**
     * The time the plan's message size takes to cross from rank {@code from} to rank {@code to} beyond the
     * latency, alone on the wire (its bandwidths' slowest stage on the way); 0 for a plan sized 0 bytes or without
     * bandwidths. Relay routes add it to a hop's latency, so they avoid thin links when the bytes make it pay.
     */
    default double transferMs(int from, int to) {
        return 0;
    }

    /**
     * What this plan predicts for one message's hop from rank {@code from} to rank {@code to}: the latency plus the
     * transfer of the plan's message size ({@link #transferMs}), for relay routes.
     */
    default double hopMs(int from, int to) {
        return oneWayMs(from, to) + transferMs(from, to);
    }

    /**
     * The plan a collective moving {@code bytes} bytes runs with: its size class's trees for a {@link SizedPlan}, this
     * plan (one set of trees for every size) otherwise.
     */
    default CollectivePlan forBytes(long bytes) {
        return this;
    }

    /** The plans of this plan's size classes, class 0 first: this plan alone unless it is a {@link SizedPlan}. */
    default List<CollectivePlan> sizeClassPlans() {
        return List.of(this);
    }

    /** Whether collectives on this plan choose their trees by message size ({@link #forBytes} differs by size). */
    default boolean choosesBySize() {
        return sizeClassPlans().size() > 1;
    }

    /** The size class plan whose id is {@code id}, as a frame names it; empty if it is none of this plan's. */
    default Optional<CollectivePlan> sizeClassPlan(long id) {
        return sizeClassPlans().stream().filter(plan -> plan.epoch() == id).findFirst();
    }
}
