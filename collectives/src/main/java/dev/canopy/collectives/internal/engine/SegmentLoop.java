package dev.canopy.collectives.internal.engine;

import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Continues a loop over a message's segments. A future that is already complete calls its
 * listeners inline, so a loop whose segments have all arrived (or a leaf, which waits for nobody)
 * would grow the stack by a few frames per segment; every {@value #STEPS_PER_STACK} steps the loop
 * continues from its context's task queue instead.
 */
final class SegmentLoop {

    static final int STEPS_PER_STACK = 64;

    private SegmentLoop() {
    }

    /** Runs {@code step}, the loop's step number {@code next}, now or from the current context's queue. */
    static void continueWith(int next, Runnable step) {
        Context context = Vertx.currentContext();
        if (context != null && next % STEPS_PER_STACK == 0) {
            context.runOnContext(ignored -> step.run());
        } else {
            step.run();
        }
    }
}
