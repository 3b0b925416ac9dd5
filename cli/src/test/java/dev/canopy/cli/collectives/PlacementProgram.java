package dev.canopy.cli.collectives;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;

/** Run by the tests: prints where the process was placed ({@code site/host#rank}) and an allreduce of (1, rank). */
public final class PlacementProgram implements CanopyProgram {

    @Override
    public void run(CanopySession session) {
        long[] sums = session.blocking(ArrayType.LONGS).allreduce(new long[] {1, session.rank()}, BuiltInOp.SUM);
        System.out.println("placed at " + session.label() + ", allreduce " + sums[0] + " " + sums[1]);
    }
}
