package dev.canopy.dynamic;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.model.GridModel;
import java.io.IOException;
import java.nio.file.Path;

/**
 * One process of a client job in its own JVM, for {@link PeerKilledTest}: joins the job, connects to the service
 * and prints {@code CONNECTED <rank>}, then waits until its standard input ends (or it is killed).
 * Arguments: ZooKeeper, job, job secret file, namespace, service, process index in four-site.rsl, job size,
 * name-service secret file.
 */
public final class RemoteClientMain {

    private RemoteClientMain() {
    }

    public static void main(String[] args) throws IOException {
        GridModel grid = TwoJobs.fourSites();
        int index = Integer.parseInt(args[5]);
        JobSecret secret = JobSecret.fromFile(Path.of(args[2]));
        NodeOptions options = NodeOptions.of(JobId.of(args[1]), NodeId.of("p" + index), grid.processes().get(index).coordinates(),
                Integer.parseInt(args[6]), args[0], secret).withHeartbeat(TwoJobs.LOADED_MACHINE);
        CanopyNode node = Blocking.await(CanopyNode.start(CanopyVertx.create(), options));
        Communicator world = Blocking.await(node.join());
        Collectives collectives = new Collectives(world, ConfiguredPlans.of(world.members(), grid), CollectiveSettings.defaults());
        DynamicProcesses dynamic = DynamicProcesses.over(collectives, grid, DynamicOptions.of(args[0],
                JobSecret.fromFile(Path.of(args[7])))
                .withNamespace(args[3]).withHeartbeat(TwoJobs.LOADED_MACHINE).withInterPhase(InterPhase.TOPOLOGY));
        PortName port = world.rank() == 0 ? Blocking.await(dynamic.lookupName(args[4])) : null;
        InterCommunicator server = Blocking.await(dynamic.connect(port, 0));
        System.out.println("CONNECTED " + server.rank());
        System.out.flush();
        while (System.in.read() >= 0) {
            // waits for the end of input, or SIGKILL
        }
    }
}
