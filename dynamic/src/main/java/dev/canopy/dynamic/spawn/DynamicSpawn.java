package dev.canopy.dynamic.spawn;

import dev.canopy.collectives.Collectives;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.JobId;
import dev.canopy.dynamic.DynamicProcesses;
import dev.canopy.dynamic.DynamicTimeoutException;
import dev.canopy.dynamic.InterCommunicator;
import dev.canopy.dynamic.PortName;
import dev.canopy.dynamic.StepLog;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.processes.AgentZnodes;
import dev.canopy.processes.Placement;
import dev.canopy.processes.SpawnCommand;
import dev.canopy.processes.SpawnFailedException;
import dev.canopy.processes.SpawnOrder;
import dev.canopy.processes.SpawnedChildren;
import dev.canopy.processes.Spawner;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code MPI_Comm_spawn} and {@code MPI_Comm_spawn_multiple} for one process of a group: {@link #spawn} is collective
 * over the group (every member calls it, in the same order as its other collectives) and returns the
 * inter-communicator with the children once it exists at every parent. The root opens a port, asks the pool's
 * agents for the children ({@link Spawner}: placement by load, then latency from the root), the children join
 * their own job and connect back ({@link Parent#connect}). The group accepts at the port from the start
 * ({@link DynamicProcesses#acceptSpawned}): the root meets the children's root as soon as it connects, and one
 * broadcast tells the group that the spawn worked and the pairing's key. When the spawn fails (no agent fits, an unknown program class,
 * a child that exits or never joins, an agent that dies, the timeout), every parent's future fails with the
 * root's reason and no child is left running.
 *
 * <p>The children live while the root's spawn client does: {@link #close()} (or the root's end) withdraws the
 * requests and the agents kill children still running. A spawned program is a {@code CanopyProgram}; its ranks
 * follow the grid's topology (site by site), not the order of the commands.
 */
public final class DynamicSpawn implements AutoCloseable {

    private static final Duration ZOOKEEPER_SESSION = Duration.ofSeconds(10);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Logger LOG = LoggerFactory.getLogger(DynamicSpawn.class);
    /** The root's steps of a spawn (beside the pairing's own, {@link StepLog}). */
    static final String PORT = "port";
    static final String REQUESTED = "requested";
    static final String ACCEPTED = "accepted";

    private final Collectives group;
    private final GridModel grid;
    private final DynamicProcesses dynamic;
    private final SpawnSettings settings;
    private final Vertx vertx;
    private Future<Root> root;
    private SpawnTimeline lastTimeline;

    /** What only the root holds: its ZooKeeper client, spawner and the latency to each site. */
    private record Root(ZooKeeperSession session, Spawner spawner, RootLatency latency) implements AutoCloseable {
        @Override
        public void close() {
            latency.close();
            session.close();
        }
    }

    private DynamicSpawn(Collectives group, GridModel grid, DynamicProcesses dynamic, SpawnSettings settings) {
        this.group = group;
        this.grid = grid;
        this.dynamic = dynamic;
        this.settings = settings;
        this.vertx = group.communicator().context().owner();
    }

    /** Spawning over {@code group} (planned on {@code grid}), accepting the children through {@code dynamic}. */
    public static DynamicSpawn over(Collectives group, GridModel grid, DynamicProcesses dynamic, SpawnSettings settings) {
        return new DynamicSpawn(group, grid, dynamic, settings);
    }

    /** {@code count} processes of {@code program arguments}; see the class comment. */
    public Future<InterCommunicator> spawn(String program, List<String> arguments, int count, Placement placement, int root) {
        return spawnMultiple(List.of(new SpawnCommand(program, arguments, count, placement)), root);
    }

    /** The processes of every command, as one child job (one inter-communicator). Read at {@code root} only. */
    public Future<InterCommunicator> spawnMultiple(List<SpawnCommand> commands, int root) {
        int size = group.communicator().size();
        if (root < 0 || root >= size) {
            return Future.failedFuture(new IllegalArgumentException("spawn: root " + root + " is not a rank of the group (0.."
                    + (size - 1) + ")"));
        }
        boolean isRoot = group.communicator().rank() == root;
        StepLog steps = new StepLog();
        if (isRoot) {
            // The spawn client's ZooKeeper session (opened at a root's first spawn, kept after) connects while the port
            // opens, instead of after it.
            root(root);
        }
        Future<PortName> port = isRoot ? dynamic.openPort().onSuccess(opened -> steps.mark(PORT)) : Future.succeededFuture();
        Future<Started> started = isRoot ? port.compose(opened -> startChildren(commands, root, opened))
                : Future.succeededFuture();
        // The parents accept from the start: the root meets the children's root the moment it connects, and the
        // parents hear in one broadcast that the spawn worked and the pairing's key.
        return dynamic.acceptSpawned(port, root, started, settings.timeout(), steps)
                .onComplete(made -> {
                    if (isRoot) {
                        finishAtRoot(made.succeeded(), port, started, steps);
                    }
                })
                .recover(failure -> Future.failedFuture(failure instanceof DynamicTimeoutException ? failure
                        : new SpawnFailedException(failure.getMessage(), failure)));
    }

    /** The timeline of the last spawn that succeeded at this process, when it was the root. */
    public synchronized Optional<SpawnTimeline> lastTimeline() {
        return Optional.ofNullable(lastTimeline);
    }

    /** At the root: the children started by the spawner, and how to release them. */
    private record Started(Root root, SpawnedChildren children) {
    }

    /**
     * Where the parents wait, their TLS files when their inter-communicators run TLS, and their ZooKeeper TLS directory
     * when they reach ZooKeeper over TLS (paths only).
     */
    private Map<String, String> childProperties(PortName port) {
        Map<String, String> properties = new HashMap<>(Parent.tlsProperties(dynamic.options().tls()));
        properties.putAll(Parent.zooKeeperTlsProperties(dynamic.options().zooKeeperTls()));
        properties.put(Parent.PORT_PROPERTY, port.toString());
        return properties;
    }

    /** At the root: asks the agents for the children; completes once every child has joined its job. */
    private Future<Started> startChildren(List<SpawnCommand> commands, int rootRank, PortName port) {
        JobId childJob = JobId.of("spawn-" + HexFormat.of().formatHex(RANDOM.generateSeed(6)));
        return root(rootRank).compose(root -> {
            SpawnOrder order = new SpawnOrder(childJob, commands, grid, root.latency(), settings.timeout(),
                    settings.wan() == SpawnSettings.WanEmulation.EMULATED, childProperties(port));
            return root.spawner().spawn(order).map(children -> new Started(root, children));
        });
    }

    /**
     * At the root, once the inter-communicator exists or the spawn failed: the timeline, or the children released
     * and the port closed. The children's start may complete after the pairing (its watch is slower than the
     * children's root), so both wait for it.
     */
    private void finishAtRoot(boolean made, Future<PortName> port, Future<Started> started, StepLog steps) {
        if (made) {
            long accepted = System.nanoTime();
            started.onSuccess(done -> record(done.children(), steps, accepted));
            return;
        }
        started.onSuccess(done -> done.root().spawner().release(done.children()));
        port.onSuccess(dynamic::closePort);
    }

    private void record(SpawnedChildren children, StepLog steps, long accepted) {
        steps.mark(REQUESTED, children.requestedNanos());
        steps.mark(ACCEPTED, accepted);
        SpawnTimeline timeline = SpawnTimeline.of(steps);
        synchronized (this) {
            lastTimeline = timeline;
        }
        LOG.debug("spawn of {}: {}; {}", children.job(), timeline, steps);
    }

    private synchronized Future<Root> root(int rootRank) {
        if (root == null || root.failed()) {
            String rootSite = group.communicator().member(rootRank).coordinates().site();
            root = ZooKeeperSession.open(vertx, dynamic.options().zooKeeper(), ZOOKEEPER_SESSION, ZOOKEEPER_SESSION,
                            Optional.of(ZooKeeperCredentials.of(dynamic.options().secret())), dynamic.options().zooKeeperTls())
                    .map(session -> new Root(session, new Spawner(vertx, session.client(), new AgentZnodes(settings.pool())),
                            new RootLatency(group.communicator().context(), session.client(), settings.probedJob(), grid,
                                    rootSite)));
        }
        return root;
    }

    /** Ends the root's spawn client: the requests go, and the agents kill the children still running. */
    @Override
    public synchronized void close() {
        if (root != null && root.succeeded()) {
            root.result().close();
        }
        root = null;
    }
}
