package dev.canopy.cli.collectives;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;

/**
 * Launched by the tests with {@code --live-plans}: calls the switch point between iterations until the plan
 * leader's first plan is adopted (a bounded number of iterations, the same on every rank), then sums on it.
 */
public final class AdaptingProgram implements CanopyProgram {

    private static final int MAX_SWITCH_POINTS = 2000;

    @Override
    public void run(CanopySession session) {
        long configured = session.collectives().plan().epoch();
        long epoch = configured;
        for (int switchPoint = 0; switchPoint < MAX_SWITCH_POINTS && epoch == configured; switchPoint++) {
            epoch = session.adoptNewestPlan();
        }
        if (epoch == configured) {
            throw new IllegalStateException("no live plan adopted in " + MAX_SWITCH_POINTS + " switch points");
        }
        long[] sums = session.blocking(ArrayType.LONGS).allreduce(new long[] {1, session.rank()}, BuiltInOp.SUM);
        System.out.println("on live plan epoch " + epoch + ": allreduce " + sums[0] + " " + sums[1]);
    }
}
