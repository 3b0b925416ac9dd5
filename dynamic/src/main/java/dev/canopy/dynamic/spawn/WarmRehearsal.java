package dev.canopy.dynamic.spawn;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.run.Canopy;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.TransportStack;
import dev.canopy.core.security.JobSecret;
import dev.canopy.dynamic.DynamicOptions;
import dev.canopy.dynamic.DynamicProcesses;
import dev.canopy.dynamic.InterCommunicator;
import dev.canopy.dynamic.PortName;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.processes.ChildGrid;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.Map;

/**
 * What a warm JVM does before it waits for a binding: everything a spawned child does on its way to its parents,
 * once, against a ZooKeeper of its own on loopback, so a spawn finds every class loaded and initialised (Vert.x,
 * Netty, the transport's handshake and its crypto, Curator, the membership and start barrier, the collectives'
 * plans, the name service, the pairing, the crossing-pair measurement, disconnect). Two single-process jobs join,
 * one accepts at a port and the other connects, they meet in a barrier and disconnect; then all of it is closed.
 * The rehearsal talks to nobody else: an embedded ZooKeeper, a fresh secret, loopback sockets.
 */
final class WarmRehearsal {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private WarmRehearsal() {
    }

    /** Runs the rehearsal (blocking); fails with the step that failed. */
    static void run() {
        GridModel bundled = GridConfigs.defaultGrid();
        GridModel grid = ChildGrid.of(bundled, "warm-rehearsal", Map.of(bundled.sites().get(0).name(), 1));
        JobSecret secret = JobSecret.generate();
        try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start();
             CanopySession accepting = Canopy.join(options("warm-accept", grid, zooKeeper, secret));
             CanopySession connecting = Canopy.join(options("warm-connect", grid, zooKeeper, secret))) {
            DynamicOptions options = DynamicOptions.of(zooKeeper.connectString(), secret).withNamespace("warm")
                    .withTimeout(TIMEOUT);
            try (DynamicProcesses server = DynamicProcesses.over(accepting.collectives(), grid, options,
                         accepting.zooKeeperSession());
                 DynamicProcesses client = DynamicProcesses.over(connecting.collectives(), grid, options,
                         connecting.zooKeeperSession())) {
                PortName port = Blocking.await(server.openPort());
                Future<InterCommunicator> accepted = server.accept(port, 0);
                Future<InterCommunicator> connected = client.connect(port, 0);
                InterCommunicator toClient = Blocking.await(accepted);
                InterCommunicator toServer = Blocking.await(connected);
                Blocking.await(Future.all(toClient.barrier(), toServer.barrier()));
                Blocking.await(Future.all(toClient.disconnect(), toServer.disconnect()));
                Blocking.await(server.closePort(port));
            }
        }
    }

    private static JoinOptions options(String job, GridModel grid, EmbeddedZooKeeper zooKeeper, JobSecret secret) {
        return new JoinOptions(JobId.of(job), 0, grid, zooKeeper.connectString(), TransportStack.none(), secret);
    }
}
