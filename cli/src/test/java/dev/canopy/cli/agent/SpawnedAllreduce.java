package dev.canopy.cli.agent;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;

/** Spawned by the tests: the children sum (1, rank) among themselves and print it with their site. */
public final class SpawnedAllreduce implements CanopyProgram {

    @Override
    public void run(CanopySession session) {
        long[] sums = session.blocking(ArrayType.LONGS).allreduce(new long[] {1, session.rank()}, BuiltInOp.SUM);
        System.out.println("spawned allreduce " + sums[0] + " " + sums[1]);
    }
}
