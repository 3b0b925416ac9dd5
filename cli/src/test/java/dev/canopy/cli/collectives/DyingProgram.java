package dev.canopy.cli.collectives;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;

/**
 * Launched by the tests on two processes: rank 1 runs out of heap for real (one allocation larger than any
 * heap this machine gives a JVM), rank 0 meets a fatal error on an event loop (where Vert.x would log it
 * and carry on) while its main thread waits for a message that never comes.
 */
public final class DyingProgram implements CanopyProgram {

    /** Retained, so that the allocation cannot be optimised away. */
    static long[] hoard;

    @Override
    public void run(CanopySession session) {
        if (session.rank() == 1) {
            System.out.println("allocating 16 GiB");
            hoard = new long[Integer.MAX_VALUE - 16];
            System.out.println("allocated " + hoard.length + " longs");
        } else {
            session.world().context().runOnContext(v -> {
                throw new OutOfMemoryError("simulated on an event loop");
            });
            Blocking.await(session.world().receive(1, 1));
        }
    }
}
