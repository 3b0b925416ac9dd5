package dev.canopy.examples;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.BlockingCollectives;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import java.util.Arrays;

/**
 * Every rank contributes the vector (rank, rank², 1); after the allreduce every rank holds the
 * element-wise sums: (Σ rank, Σ rank², size).
 */
public final class VectorAllreduceExample implements CanopyProgram {

    @Override
    public void run(CanopySession session) {
        BlockingCollectives<double[]> doubles = session.blocking(ArrayType.DOUBLES);
        int rank = session.rank();
        double[] mine = {rank, (double) rank * rank, 1};
        double[] sums = doubles.allreduce(mine, BuiltInOp.SUM);
        System.out.println("rank " + rank + ": sums " + Arrays.toString(sums));
    }
}
