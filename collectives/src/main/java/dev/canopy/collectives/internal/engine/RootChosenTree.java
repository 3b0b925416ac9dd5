package dev.canopy.collectives.internal.engine;

import dev.canopy.collectives.CollectiveMismatchException;
import dev.canopy.collectives.plan.CollectivePlan;
import io.vertx.core.Context;
import io.vertx.core.Future;

/**
 * How a member that does not know a collective's message size (a bcast's or scatter's receiver) finds the tree its
 * root chose by size: the root's frames carry its size class's plan id, so the member takes the collective's first
 * frame from whichever rank sends it ({@link Exchange#adoptSendersPlan}), looks the id up among its plan's size
 * classes and checks that the sender is its parent in that class's tree. Anything else is a
 * {@link CollectiveMismatchException}: members on different plans, or a frame from a rank that is not the parent.
 */
public final class RootChosenTree {

    private RootChosenTree() {
    }

    /** The tree rooted at {@code root} of the size class the first frame of {@code step} names; on {@code context}. */
    public static Future<RootedTree> learn(Exchange exchange, CollectivePlan plan, int root, int step, Context context) {
        return exchange.adoptSendersPlan(step, id -> plan.sizeClassPlan(id).isPresent())
                .compose(first -> plan.sizeClassPlan(first.plan()).orElseThrow().treeOffLoop(root, context)
                        .map(tree -> fromParent(exchange, tree, first)));
    }

    private static RootedTree fromParent(Exchange exchange, RootedTree tree, Exchange.SendersPlan first) {
        int parent = tree.parent(exchange.rank());
        if (parent != first.source()) {
            throw new CollectiveMismatchException("rank " + first.source() + " sent the first frame of "
                    + exchange.operation().displayName() + " on plan " + first.plan() + ", whose tree from root "
                    + tree.root() + " gives rank " + exchange.rank() + " the parent " + parent
                    + ": members must start the same collectives in the same order with the same plan");
        }
        return tree;
    }
}
