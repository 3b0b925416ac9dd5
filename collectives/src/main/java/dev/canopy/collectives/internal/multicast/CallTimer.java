package dev.canopy.collectives.internal.multicast;

import dev.canopy.core.internal.emulation.NanoClock;
import io.vertx.core.Future;
import java.util.Arrays;
import java.util.Optional;

/**
 * What a one-to-many call costs its user, for {@code auto} ({@link AutoPolicy}, {@link PolicyCalibration}): from the
 * root's start until the last target has its piece, measured on the root's clock alone. Each target, once its own
 * call completed and the DONE words of its children arrived, says DONE (point-to-point, on the operation's control
 * tag) to its parent in a tree of fan-in {@link #FAN_IN} over the root and the targets; the root's time ends when
 * its children's words are in. So a target that called late (its members' skew), or a multicast whose delivery is
 * still under way when the root's own call returned, is in the time, which a member's own call time misses; the
 * tree keeps the root's part at {@link #FAN_IN} words, and adds the same few hops to every policy of a shape.
 *
 * <p>Nothing waits for it: the call's own future completes as before. {@code dynamic} needs no words (its root
 * already waits for every target's DONE before it returns, and they share the tag), so its root's own time counts.
 * Context only.
 */
final class CallTimer {

    static final int FAN_IN = 4;

    private final GroupScope scope;
    private final NanoClock clock;

    CallTimer(GroupScope scope, NanoClock clock) {
        this.scope = scope;
        this.clock = clock;
    }

    long now() {
        return clock.nanoTime();
    }

    /**
     * The time of {@code call} (this member's part of {@code operation} from {@code root} to {@code targets},
     * started at {@code startNanos}): at the root the microseconds until every target had its piece, once known;
     * empty at every other member once it passed its word on (or at once outside the targets). {@code wordsNeeded}
     * false: the root's own call already waits for every target (dynamic), no words move.
     */
    Future<Optional<Double>> time(long operation, int root, int[] targets, boolean wordsNeeded, Future<?> call,
            long startNanos) {
        int me = scope.rank();
        int at = Arrays.binarySearch(targets, me);
        if (me != root && at < 0) {
            return Future.succeededFuture(Optional.empty());
        }
        int index = me == root ? 0 : at + 1;
        Future<Void> children = wordsNeeded ? scope.words(operation, children(index, root, targets), GroupMessage.DONE)
                : Future.succeededFuture();
        Future<?> done = Future.all(call, children);
        if (index == 0) {
            return done.map(all -> Optional.of((clock.nanoTime() - startNanos) / 1e3));
        }
        if (!wordsNeeded) {
            return done.map(all -> Optional.empty());
        }
        // The word goes up whatever the outcome, so a failed call leaves no receive waiting above it.
        int parent = (index - 1) / FAN_IN;
        return done.transform(outcome -> scope.word(parent == 0 ? root : targets[parent - 1], operation,
                GroupMessage.DONE)).map(sent -> Optional.empty());
    }

    /** The ranks of the children of tree index {@code index} (0 the root, {@code i} target {@code i - 1}). */
    private static int[] children(int index, int root, int[] targets) {
        int first = FAN_IN * index + 1;
        int last = Math.min(FAN_IN * index + FAN_IN, targets.length);
        if (first > last) {
            return new int[0];
        }
        return Arrays.copyOfRange(targets, first - 1, last);
    }
}
