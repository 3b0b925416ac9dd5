package dev.canopy.cli.keys;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.collectives.run.JoinOptions;

/** Launched by the tests: says whether its process joined with TLS, then sums (1, rank) with the others. */
public final class TlsProgram implements CanopyProgram {

    @Override
    public void run(CanopySession session) {
        boolean tls = JoinOptions.fromEnvironment(System.getenv()).transport().tls().isPresent();
        long[] sums = session.blocking(ArrayType.LONGS).allreduce(new long[] {1, session.rank()}, BuiltInOp.SUM);
        System.out.println((tls ? "with TLS" : "without TLS") + " allreduce " + sums[0] + " " + sums[1]);
    }
}
