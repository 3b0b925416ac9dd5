package dev.canopy.collectives;

import io.vertx.core.Future;
import java.util.function.Supplier;

/**
 * A communicator's collective sequence numbers, in the order its member starts collectives, and the turn in which
 * each collective's first stage begins: a collective whose tree is still being planned off the event loop holds back
 * the ones started after it, because a multicast stream carries bcasts in the order their first stages begin and
 * every member must see the same order (planning finishes in any order on the workers).
 * Used only on the communicator's context, so it needs no synchronisation.
 */
final class Sequencer {

    private int next;
    private Future<?> lastTurn = Future.succeededFuture();

    int next() {
        return next++;
    }

    /**
     * Runs {@code step} once every collective started before has had its turn (at once when they all have, which is
     * the usual case: known trees are ready), and returns its result.
     */
    <T> Future<T> inTurn(Supplier<Future<T>> step) {
        Future<T> mine = lastTurn.transform(earlier -> step.get());
        lastTurn = mine;
        return mine;
    }
}
