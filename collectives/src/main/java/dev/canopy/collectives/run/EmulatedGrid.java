package dev.canopy.collectives.run;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.internal.loop.OwnEventLoop;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.emulation.GridWanEmulation;
import dev.canopy.core.internal.emulation.WanEmulator;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.node.TransportStack;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Every process of a level file as a real node in this JVM: an embedded ZooKeeper, TCP on
 * 127.0.0.1, a job secret made for the grid, and the file's WAN emulated between sites. For benchmarks and calibration; blocking
 * methods, to be called from a plain thread. Each node runs on a context of its own, spread over the Vert.x event-loop
 * pool ({@link OwnEventLoop}) as separate processes would be; their shared parts (the WAN emulator) are thread-safe.
 *
 * <p>The embedded server comes from canopy-zookeeper-server, an optional dependency of canopy-collectives (a library
 * user gets no server): a program that calls this class depends on canopy-zookeeper-server itself.
 */
public final class EmulatedGrid implements AutoCloseable {

    private final EmbeddedZooKeeper zooKeeper;
    private final WanEmulator emulator;
    private final Vertx vertx;
    private final List<CanopyNode> nodes;
    private final List<Communicator> world;
    private final JobSecret secret;

    private EmulatedGrid(EmbeddedZooKeeper zooKeeper, WanEmulator emulator, Vertx vertx, List<CanopyNode> nodes,
            List<Communicator> world, JobSecret secret) {
        this.secret = secret;
        this.zooKeeper = zooKeeper;
        this.emulator = emulator;
        this.vertx = vertx;
        this.nodes = nodes;
        this.world = world;
    }

    /** The transport layers of process {@code index} over the grid's WAN emulator. */
    @FunctionalInterface
    public interface ProcessLayers {
        TransportStack layers(WanEmulator emulator, int index);
    }

    /** Starts and joins every process of {@code grid} as job {@code job}; blocks until WORLD exists everywhere. */
    public static EmulatedGrid start(GridModel grid, String job, long seed) {
        return start(grid, job, (emulator, index) ->
                GridEmulation.layers(emulator, grid.processes().get(index).coordinates(), seed + index));
    }

    /**
     * As {@link #start(GridModel, String, long)} with each node's options adjusted, e.g. slower failure detection:
     * many nodes of one JVM on a loaded machine miss the default 5 s heartbeat and 4 s ZooKeeper session timeouts
     * although none can fail alone.
     */
    public static EmulatedGrid start(GridModel grid, String job, long seed, UnaryOperator<NodeOptions> nodeOptions) {
        return start(grid, job, (emulator, index) ->
                GridEmulation.layers(emulator, grid.processes().get(index).coordinates(), seed + index), nodeOptions);
    }

    /** As {@link #start(GridModel, String, long)}, with the layers of each process given (fault injection over the WAN). */
    public static EmulatedGrid start(GridModel grid, String job, ProcessLayers layers) {
        return start(grid, job, layers, UnaryOperator.identity());
    }

    private static EmulatedGrid start(GridModel grid, String job, ProcessLayers layers,
            UnaryOperator<NodeOptions> nodeOptions) {
        EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start();
        WanEmulator emulator = WanEmulator.start(GridWanEmulation.of(grid));
        Vertx vertx = CanopyVertx.create();
        List<CanopyNode> nodes = new ArrayList<>();
        JobSecret secret = JobSecret.generate();
        try {
            List<Future<CanopyNode>> starting = new ArrayList<>();
            for (int index = 0; index < grid.processCount(); index++) {
                JoinOptions options = new JoinOptions(JobId.of(job), index, grid, zooKeeper.connectString(),
                        layers.layers(emulator, index), secret);
                starting.add(OwnEventLoop.startNode(vertx, nodeOptions.apply(options.nodeOptions())));
            }
            for (Future<CanopyNode> node : starting) {
                nodes.add(Blocking.await(node));
            }
            List<Future<Communicator>> joining = nodes.stream().map(CanopyNode::join).toList();
            List<Communicator> world = new ArrayList<>();
            for (Future<Communicator> communicator : joining) {
                world.add(Blocking.await(communicator));
            }
            world.sort(Comparator.comparingInt(Communicator::rank));
            return new EmulatedGrid(zooKeeper, emulator, vertx, nodes, world, secret);
        } catch (RuntimeException e) {
            new EmulatedGrid(zooKeeper, emulator, vertx, nodes, List.of(), secret).close();
            throw e;
        }
    }

    /** WORLD on every process, indexed by rank. */
    public List<Communicator> world() {
        return world;
    }

    /** The embedded ZooKeeper's {@code host:port}, for tools that watch the job (the dashboard). */
    public String zooKeeperConnectString() {
        return zooKeeper.connectString();
    }

    /** The job's secret: its ZooKeeper znodes are readable with the credentials derived from it. */
    public JobSecret secret() {
        return secret;
    }

    /** The nodes in start order (not rank order), e.g. to make one leave. */
    public List<CanopyNode> nodes() {
        return List.copyOf(nodes);
    }

    @Override
    public void close() {
        for (CanopyNode node : nodes) {
            node.close().toCompletionStage().toCompletableFuture().exceptionally(e -> null).join();
        }
        vertx.close().toCompletionStage().toCompletableFuture().exceptionally(e -> null).join();
        emulator.close();
        zooKeeper.close();
    }
}
