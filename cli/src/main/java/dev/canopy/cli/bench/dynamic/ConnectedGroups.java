package dev.canopy.cli.bench.dynamic;

import dev.canopy.collectives.Blocking;
import dev.canopy.core.internal.emulation.GridWanEmulation;
import dev.canopy.core.internal.emulation.WanEmulator;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.dynamic.InterCommunicator;
import dev.canopy.dynamic.InterPhase;
import dev.canopy.dynamic.PortName;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Two jobs of the level file in this JVM, over its emulated WAN, joined by an inter-communicator for each inter phase
 * asked for: the "parents" at some processes, the "children" at others (connect/accept, the same inter-communicator a
 * spawn makes). For the measurements that need no new JVMs: merge, point-to-point and inter-communicator collectives.
 * Several phases connect the same two jobs (same processes, same JVM), so their collectives can take turns.
 */
final class ConnectedGroups implements AutoCloseable {

    private final EmbeddedZooKeeper zooKeeper;
    private final WanEmulator emulator;
    private final Vertx vertx;
    final JoinedGroup parents;
    final JoinedGroup children;
    private final Map<InterPhase, List<InterCommunicator>> parentSide;
    private final Map<InterPhase, List<InterCommunicator>> childSide;

    private ConnectedGroups(EmbeddedZooKeeper zooKeeper, WanEmulator emulator, Vertx vertx, JoinedGroup parents,
            JoinedGroup children, Map<InterPhase, List<InterCommunicator>> parentSide,
            Map<InterPhase, List<InterCommunicator>> childSide) {
        this.zooKeeper = zooKeeper;
        this.emulator = emulator;
        this.vertx = vertx;
        this.parents = parents;
        this.children = children;
        this.parentSide = parentSide;
        this.childSide = childSide;
    }

    /** Parents at the file's processes {@code parentsAt}, children at {@code childrenAt}, once per phase; blocking. */
    static ConnectedGroups start(GridModel grid, int[] parentsAt, int[] childrenAt, List<InterPhase> phases) {
        EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start();
        WanEmulator emulator = WanEmulator.start(GridWanEmulation.of(grid));
        Vertx vertx = CanopyVertx.create();
        JobSecret secret = JobSecret.generate();
        String namespace = "bench";
        JoinedGroup parents = JoinedGroup.join(vertx, grid, zooKeeper.connectString(), secret, JobId.of("bench-parents"),
                parentsAt, Optional.of(emulator), namespace, phases);
        JoinedGroup children = JoinedGroup.join(vertx, grid, zooKeeper.connectString(), secret, JobId.of("bench-children"),
                childrenAt, Optional.of(emulator), namespace, phases);
        Map<InterPhase, List<InterCommunicator>> parentSide = new EnumMap<>(InterPhase.class);
        Map<InterPhase, List<InterCommunicator>> childSide = new EnumMap<>(InterPhase.class);
        for (InterPhase phase : phases) {
            PortName port = Blocking.await(parents.processes().get(0).dynamic(phase).openPort());
            List<Future<InterCommunicator>> accepting = new ArrayList<>();
            parents.processes().forEach(process -> accepting.add(process.dynamic(phase)
                    .accept(process.rank() == 0 ? port : null, 0)));
            List<Future<InterCommunicator>> connecting = new ArrayList<>();
            children.processes().forEach(process -> connecting.add(process.dynamic(phase)
                    .connect(process.rank() == 0 ? port : null, 0)));
            parentSide.put(phase, accepting.stream().map(Blocking::await).toList());
            childSide.put(phase, connecting.stream().map(Blocking::await).toList());
        }
        return new ConnectedGroups(zooKeeper, emulator, vertx, parents, children, parentSide, childSide);
    }

    List<InterCommunicator> parentSide(InterPhase phase) {
        return parentSide.get(phase);
    }

    List<InterCommunicator> childSide(InterPhase phase) {
        return childSide.get(phase);
    }

    /** Both sides of {@code phase}'s inter-communicator, parents first. */
    List<InterCommunicator> all(InterPhase phase) {
        List<InterCommunicator> all = new ArrayList<>(parentSide(phase));
        all.addAll(childSide(phase));
        return all;
    }

    @Override
    public void close() {
        parentSide.keySet().stream().flatMap(phase -> all(phase).stream()).map(InterCommunicator::disconnect).toList()
                .forEach(done -> Blocking.await(done.otherwiseEmpty()));
        children.close();
        parents.close();
        Blocking.await(vertx.close());
        emulator.close();
        zooKeeper.close();
    }
}
