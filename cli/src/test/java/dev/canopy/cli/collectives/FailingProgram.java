package dev.canopy.cli.collectives;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;

/** Launched by the tests: rank 1 fails before the allreduce; the others must fail naming it, not hang. */
public final class FailingProgram implements CanopyProgram {

    @Override
    public void run(CanopySession session) {
        if (session.rank() == 1) {
            throw new IllegalStateException("rank 1 gives up");
        }
        session.blocking(ArrayType.LONGS).allreduce(new long[] {1}, BuiltInOp.SUM);
        System.out.println("allreduce completed although rank 1 failed");
    }
}
