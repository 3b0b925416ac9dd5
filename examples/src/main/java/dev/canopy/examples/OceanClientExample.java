package dev.canopy.examples;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.dynamic.BlockingInterCommunicator;
import dev.canopy.dynamic.DynamicOptions;
import dev.canopy.dynamic.DynamicProcesses;
import dev.canopy.dynamic.InterCommunicator;
import dev.canopy.dynamic.PortName;
import java.util.stream.DoubleStream;

/**
 * A visualisation client: its rank 0 looks up the {@link OceanServerExample}'s service by name, every rank connects
 * (collectively), receives the whole field at each step and reports the mean of the last one back to the server's
 * rank 0. Run with the server's ZooKeeper ({@code --zk}) and its name-service secret ({@code CANOPY_NAMES_SECRET_FILE},
 * or else its secret file): without it, the name service refuses the lookup.
 */
public final class OceanClientExample implements CanopyProgram {

    @Override
    public void run(CanopySession session) {
        DynamicOptions options = DynamicOptions.fromEnvironment(System.getenv());
        try (DynamicProcesses dynamic = DynamicProcesses.of(session, options)) {
            PortName port = session.rank() == 0 ? dynamic.await(dynamic.lookupName(OceanServerExample.SERVICE)) : null;
            InterCommunicator server = dynamic.await(dynamic.connect(port, 0));
            BlockingInterCommunicator<double[]> inter = server.blocking(ArrayType.DOUBLES);

            int steps = (int) inter.bcast(null, 0)[0];
            double mean = 0;
            for (int step = 0; step < steps; step++) {
                double[] field = inter.allgather(new double[0]);             // this side sends nothing
                mean = DoubleStream.of(field).average().orElse(Double.NaN);
                if (session.rank() == 0) {
                    System.out.printf("step %d: %d cells from %d server processes, mean %.2f%n", step, field.length,
                            server.remoteSize(), mean);
                }
            }
            inter.reduce(new double[] {mean}, BuiltInOp.SUM, 0);
            dynamic.await(server.disconnect());
        }
    }
}
