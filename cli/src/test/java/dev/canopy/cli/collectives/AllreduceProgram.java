package dev.canopy.cli.collectives;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;

/** Launched by the tests: every rank sums (1, rank) with the others and prints the result. */
public final class AllreduceProgram implements CanopyProgram {

    @Override
    public void run(CanopySession session) {
        long[] sums = session.blocking(ArrayType.LONGS).allreduce(new long[] {1, session.rank()}, BuiltInOp.SUM);
        System.out.println("allreduce " + sums[0] + " " + sums[1]);
    }
}
