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
import java.time.Duration;
import java.util.Arrays;

/**
 * A running simulation that clients connect to by service name: rank 0 opens a port and publishes it as
 * {@value #SERVICE}, every rank accepts (collectively), then the job streams its field to the client job for a few
 * steps (an inter-communicator allgather: each client gets every server rank's slice), takes the clients' summary
 * back (an inter-communicator reduce) and disconnects. Start it, then {@link OceanClientExample} with the same
 * ZooKeeper and name-service secret ({@code CANOPY_NAMES_SECRET_FILE}, or else the same secret file; the line
 * rank 0 prints says how).
 */
public final class OceanServerExample implements CanopyProgram {

    static final String SERVICE = "ocean";
    static final int STEPS = 3;
    private static final int CELLS_PER_RANK = 4;

    @Override
    public void run(CanopySession session) {
        // A client may come a while after the server started: wait up to five minutes for it.
        DynamicOptions options = DynamicOptions.fromEnvironment(System.getenv()).withTimeout(Duration.ofMinutes(5));
        try (DynamicProcesses dynamic = DynamicProcesses.of(session, options)) {
            PortName port = null;
            if (session.rank() == 0) {
                port = dynamic.await(dynamic.openPort());
                dynamic.await(dynamic.publishName(SERVICE, port));
                String namesSecret = System.getenv(DynamicOptions.ENV_NAMES_SECRET_FILE);
                System.out.println("published service '" + SERVICE + "' (" + port + ") in ZooKeeper " + options.zooKeeper()
                        + "; connect a client: " + (namesSecret == null ? "" : DynamicOptions.ENV_NAMES_SECRET_FILE + "="
                        + namesSecret + " ") + "./canopy launch --config examples/grids/two-site.rsl --class"
                        + " dev.canopy.examples.OceanClientExample --classpath examples/target/classes --zk "
                        + options.zooKeeper() + (namesSecret == null ? " --secret-file <the same secret file>" : ""));
            }
            InterCommunicator clients = dynamic.await(dynamic.accept(port, 0));
            BlockingInterCommunicator<double[]> inter = clients.blocking(ArrayType.DOUBLES);
            System.out.println("rank " + session.rank() + ": a client job of " + clients.remoteSize() + " processes connected");

            inter.bcast(new double[] {STEPS}, session.rank() == 0 ? InterCommunicator.ROOT : InterCommunicator.PROC_NULL);
            double[] field = new double[CELLS_PER_RANK];
            for (int step = 0; step < STEPS; step++) {
                for (int cell = 0; cell < field.length; cell++) {
                    field[cell] = 10 + session.rank() + step + cell / 10.0;   // this rank's slice of the sea, warming up
                }
                inter.allgather(field);                                        // every client gets the whole field
            }
            double[] seen = inter.reduce(null, BuiltInOp.SUM,
                    session.rank() == 0 ? InterCommunicator.ROOT : InterCommunicator.PROC_NULL).orElse(null);
            if (seen != null) {
                System.out.println("the clients' mean temperatures of the last step add up to " + Arrays.toString(seen));
                dynamic.await(dynamic.unpublishName(SERVICE));
                dynamic.await(dynamic.closePort(port));
            }
            dynamic.await(clients.disconnect());
        }
    }
}
