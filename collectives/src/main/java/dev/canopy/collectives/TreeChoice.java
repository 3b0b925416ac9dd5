package dev.canopy.collectives;

import dev.canopy.collectives.internal.engine.Exchange;
import dev.canopy.collectives.internal.engine.RootChosenTree;
import dev.canopy.collectives.internal.engine.RootedTree;
import dev.canopy.collectives.internal.engine.SizeClassCheck;
import dev.canopy.collectives.plan.CollectivePlan;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.List;
import java.util.function.BiFunction;

/**
 * How a collective gets the tree it runs on from its communicator's plan: the plan's tree for its root, or, on a plan
 * with trees per message size ({@link CollectivePlan#choosesBySize}), the tree of the size class that
 * {@link SizeChoice} says who picks. Trees are taken in the collectives' turn ({@link Sequencer#inTurn}); a receiver
 * that learns its root's choice from the first frame does not hold the turn meanwhile (only multicast needs the
 * turns, and a multicast bcast does not pick by size). Used on the communicator's context.
 */
final class TreeChoice {

    private final CollectivePlan plan;
    private final Sequencer sequencer;
    private final Context context;
    private final int rank;

    TreeChoice(CollectivePlan plan, Sequencer sequencer, Context context, int rank) {
        this.plan = plan;
        this.sequencer = sequencer;
        this.context = context;
        this.rank = rank;
    }

    /**
     * The plan whose id this member's frames carry from the start: its size class's plan when it picks one, else the
     * plan itself (a receiver that learns its root's choice adopts the class from the first frame).
     */
    CollectivePlan firstPlan(SizeChoice choice, int root, long bytes) {
        boolean picks = plan.choosesBySize()
                && (choice == SizeChoice.EVERY_MEMBER || choice == SizeChoice.ROOT && rank == root);
        return picks ? plan.forBytes(bytes) : plan;
    }

    /** Runs {@code stages} on the tree rooted at {@code root} that {@code choice} gives, on {@code exchange}. */
    <T> Future<T> run(SizeChoice choice, Exchange exchange, int root, long bytes,
            BiFunction<Exchange, RootedTree, Future<T>> stages) {
        if (choice == SizeChoice.NONE || !plan.choosesBySize()) {
            return sequencer.inTurn(() -> plan.treeOffLoop(root, context)).compose(tree -> stages.apply(exchange, tree));
        }
        if (choice == SizeChoice.ROOT && rank != root) {
            return sequencer.inTurn(() -> Future.succeededFuture())
                    .compose(turn -> RootChosenTree.learn(exchange, plan, root, 0, context))
                    .compose(tree -> stages.apply(exchange, tree));
        }
        CollectivePlan chosen = plan.forBytes(bytes);
        if (choice == SizeChoice.ROOT) {
            return sequencer.inTurn(() -> chosen.treeOffLoop(root, context)).compose(tree -> stages.apply(exchange, tree));
        }
        int chosenClass = plan.sizeClassPlans().indexOf(chosen);
        return sequencer.inTurn(() -> classTrees(root)).compose(trees -> {
            // The checks' receives go first, before any of the collective's own from the same ranks.
            Future<Void> checked = SizeClassCheck.run(exchange, trees, bytes);
            Future<T> result = stages.apply(exchange, trees.get(chosenClass));
            return Future.all(checked, result).map(both -> result.result());
        });
    }

    /** Every size class's tree rooted at {@code root}, class 0 first. */
    private Future<List<RootedTree>> classTrees(int root) {
        List<Future<RootedTree>> trees = plan.sizeClassPlans().stream().map(p -> p.treeOffLoop(root, context)).toList();
        return Future.all(trees).map(all -> trees.stream().map(Future::result).toList());
    }
}
