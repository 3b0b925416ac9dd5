package dev.canopy.dynamic.spawn;

import dev.canopy.collectives.Collectives;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.JobId;
import dev.canopy.dynamic.DynamicProcesses;
import dev.canopy.dynamic.InterCommunicator;
import dev.canopy.dynamic.PortName;
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
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
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
 * their own job and connect back ({@link Parent#connect}), the root tells its group whether the spawn worked
 * (a broadcast), and the group accepts at the port. When the spawn fails (no agent fits, an unknown program class,
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
        long called = System.nanoTime();
        Future<Started> started = isRoot ? startAtRoot(commands, root, called) : Future.succeededFuture(null);
        return started.compose(done -> group.bcast(isRoot ? done.outcome() : null, root)
                .compose(outcome -> {
                    if (outcome.length() > 0) {
                        return Future.<InterCommunicator>failedFuture(new SpawnFailedException(
                                outcome.toString(StandardCharsets.UTF_8)));
                    }
                    long told = System.nanoTime();
                    return dynamic.accept(isRoot ? done.port() : null, root)
                            .onSuccess(made -> {
                                if (isRoot) {
                                    done.record(told, System.nanoTime());
                                }
                            });
                })
                .onComplete(made -> {
                    if (isRoot) {
                        done.finish(made.succeeded());
                    }
                }));
    }

    /** The timeline of the last spawn that succeeded at this process, when it was the root. */
    public synchronized Optional<SpawnTimeline> lastTimeline() {
        return Optional.ofNullable(lastTimeline);
    }

    /** At the root: the port, the children and whether they started (an empty outcome) or why not. */
    private final class Started {
        private final PortName port;
        private final Buffer outcome;
        private final Runnable release;
        private final long called;
        private final long portOpened;
        private final Optional<SpawnedChildren> children;
        private final long joined;

        Started(PortName port, Optional<SpawnedChildren> children, Buffer outcome, Runnable release, long called,
                long portOpened) {
            this.port = port;
            this.children = children;
            this.outcome = outcome;
            this.release = release;
            this.called = called;
            this.portOpened = portOpened;
            this.joined = System.nanoTime();
        }

        PortName port() {
            return port;
        }

        Buffer outcome() {
            return outcome;
        }

        void finish(boolean accepted) {
            if (!accepted) {
                release.run();
            }
        }

        void record(long told, long accepted) {
            long requested = children.map(SpawnedChildren::requestedNanos).orElse(joined);
            SpawnTimeline timeline = new SpawnTimeline(millis(portOpened), millis(requested), millis(joined),
                    millis(told), millis(accepted));
            synchronized (DynamicSpawn.this) {
                lastTimeline = timeline;
            }
            LOG.debug("spawn of {}: {}", children.map(SpawnedChildren::job).orElse(null), timeline);
        }

        private double millis(long at) {
            return (at - called) / 1e6;
        }
    }

    /** Where the parents wait, and their TLS files when their inter-communicators run TLS. */
    private Map<String, String> childProperties(PortName port) {
        Map<String, String> properties = new HashMap<>(Parent.tlsProperties(dynamic.options().tls()));
        properties.put(Parent.PORT_PROPERTY, port.toString());
        return properties;
    }

    private Future<Started> startAtRoot(List<SpawnCommand> commands, int rootRank, long called) {
        JobId childJob = JobId.of("spawn-" + HexFormat.of().formatHex(RANDOM.generateSeed(6)));
        return dynamic.openPort().compose(port -> root(rootRank)
                .compose(root -> {
                    long portOpened = System.nanoTime();
                    SpawnOrder order = new SpawnOrder(childJob, commands, grid, root.latency(), settings.timeout(),
                            settings.wan() == SpawnSettings.WanEmulation.EMULATED,
                            childProperties(port));
                    return root.spawner().spawn(order).map(children -> new Started(port, Optional.of(children), Buffer.buffer(),
                            () -> release(root, children, port), called, portOpened));
                })
                .otherwise(failure -> {
                    dynamic.closePort(port);
                    return new Started(port, Optional.empty(), Buffer.buffer(reason(failure)), () -> { }, called, called);
                }))
                // No port: the group still hears why, so no parent waits in the broadcast.
                .otherwise(failure -> new Started(null, Optional.empty(), Buffer.buffer(reason(failure)), () -> { }, called,
                        called));
    }

    private void release(Root root, SpawnedChildren children, PortName port) {
        root.spawner().release(children);
        dynamic.closePort(port);
    }

    private static String reason(Throwable failure) {
        String message = failure.getMessage() == null ? failure.toString() : failure.getMessage();
        return failure instanceof SpawnFailedException ? message : "spawn failed at the root: " + message;
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
