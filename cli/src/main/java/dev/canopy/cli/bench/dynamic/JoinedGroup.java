package dev.canopy.cli.bench.dynamic;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.loop.OwnEventLoop;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.run.GridEmulation;
import dev.canopy.core.internal.emulation.WanEmulator;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.HeartbeatSettings;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.node.TransportStack;
import dev.canopy.core.security.JobSecret;
import dev.canopy.dynamic.DynamicOptions;
import dev.canopy.dynamic.DynamicProcesses;
import dev.canopy.dynamic.InterPhase;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One job of the benchmark in this JVM: nodes at some processes of the level file, joined through one ZooKeeper,
 * the file's WAN emulated between sites when an emulator is given, each with its collectives and dynamic processes.
 */
final class JoinedGroup implements AutoCloseable {

    /** A machine running the benchmark's many JVMs: heartbeats and sessions patient enough not to declare deaths. */
    static final HeartbeatSettings PATIENT = new HeartbeatSettings(Duration.ofSeconds(1), Duration.ofSeconds(30),
            HeartbeatSettings.DEFAULT_JITTER);
    private static final Duration SESSION = Duration.ofSeconds(20);

    /** A node, its collectives, and its dynamic processes for each inter phase asked for. */
    record Process(CanopyNode node, Collectives collectives, Map<InterPhase, DynamicProcesses> dynamics) {
        int rank() {
            return collectives.rank();
        }

        DynamicProcesses dynamic(InterPhase phase) {
            return dynamics.get(phase);
        }

        /** The dynamic processes of the one phase asked for (of the first in {@link InterPhase} order when several were). */
        DynamicProcesses dynamic() {
            return dynamics.values().iterator().next();
        }
    }

    private final List<Process> processes;

    private JoinedGroup(List<Process> processes) {
        this.processes = processes;
    }

    /** Joins job {@code job} at the file's processes {@code at} (blocking); ranked. */
    static JoinedGroup join(Vertx vertx, GridModel grid, String zooKeeper, JobSecret secret, JobId job, int[] at,
            Optional<WanEmulator> emulator, String namespace, InterPhase phase) {
        return join(vertx, grid, zooKeeper, secret, job, at, emulator, namespace, List.of(phase));
    }

    /** As {@link #join(Vertx, GridModel, String, JobSecret, JobId, int[], Optional, String, InterPhase)}, with dynamic processes for each of {@code phases}. */
    static JoinedGroup join(Vertx vertx, GridModel grid, String zooKeeper, JobSecret secret, JobId job, int[] at,
            Optional<WanEmulator> emulator, String namespace, List<InterPhase> phases) {
        List<Future<Process>> joining = new ArrayList<>();
        for (int index : at) {
            TransportStack layers = emulator.map(wan -> GridEmulation.layers(wan, grid.processes().get(index).coordinates(),
                    index)).orElse(TransportStack.none());
            NodeOptions options = NodeOptions.of(job, NodeId.of("p" + index), grid.processes().get(index).coordinates(),
                    at.length, zooKeeper, secret).withHeartbeat(PATIENT).withSessionTimeout(SESSION).withLayers(layers);
            DynamicOptions dynamic = DynamicOptions.of(zooKeeper, secret).withNamespace(namespace).withHeartbeat(PATIENT)
                    .withLayers(layers).withTimeout(Duration.ofSeconds(120));
            joining.add(OwnEventLoop.startNode(vertx, options).compose(node -> node.join().map(world -> {
                Collectives collectives = new Collectives(world, ConfiguredPlans.of(world.members(), grid),
                        CollectiveSettings.defaults());
                Map<InterPhase, DynamicProcesses> dynamics = new EnumMap<>(InterPhase.class);
                phases.forEach(phase -> dynamics.put(phase, DynamicProcesses.over(collectives, grid,
                        dynamic.withInterPhase(phase))));
                return new Process(node, collectives, dynamics);
            })));
        }
        List<Process> joined = new ArrayList<>();
        try {
            joining.forEach(process -> joined.add(Blocking.await(process)));
        } catch (RuntimeException e) {
            new JoinedGroup(joined).close();
            throw e;
        }
        joined.sort(Comparator.comparingInt(Process::rank));
        return new JoinedGroup(joined);
    }

    List<Process> processes() {
        return processes;
    }

    int size() {
        return processes.size();
    }

    @Override
    public void close() {
        for (Process process : processes) {
            process.dynamics().values().forEach(DynamicProcesses::close);
            Blocking.await(process.node().close().otherwiseEmpty());
        }
    }
}
