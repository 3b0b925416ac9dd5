package dev.canopy.collectives.grid;

import dev.canopy.core.comm.Communicator;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.HeartbeatSettings;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

/**
 * Several real Canopy nodes in this JVM on 127.0.0.1, joined through a real (embedded) ZooKeeper:
 * the fixture of the loopback tier. Node i gets multi-level coordinates (three wan groups, two
 * sites each, two hosts per site), so plans have every level.
 */
public final class LocalGrid implements AutoCloseable {

    private static final long DEADLINE_SECONDS = 90;
    /**
     * Heartbeats for a machine shared with other builds: a node whose event loop has a backlog of collective work
     * sends its heartbeats late, and with the default 5 s timeout the root of a 24-node reduce was found failed
     * (HEARTBEAT_MISSED) while it was computing. The tests here kill members by closing their nodes, which the
     * goodbye (or a connection reset) reports at once, so a long timeout costs them nothing.
     */
    private static final HeartbeatSettings LOADED_MACHINE = new HeartbeatSettings(Duration.ofSeconds(1),
            Duration.ofSeconds(30), HeartbeatSettings.DEFAULT_JITTER);

    private final EmbeddedZooKeeper zooKeeper;
    private final Vertx vertx;
    private final List<CanopyNode> nodes;
    private final List<Communicator> world;
    private final JobSecret secret;

    private LocalGrid(EmbeddedZooKeeper zooKeeper, Vertx vertx, List<CanopyNode> nodes, List<Communicator> world,
            JobSecret secret) {
        this.secret = secret;
        this.zooKeeper = zooKeeper;
        this.vertx = vertx;
        this.nodes = nodes;
        this.world = world;
    }

    public static LocalGrid start(String job, int size) {
        return start(job, size, LocalGrid::coordinatesOf);
    }

    /** Nodes with the given coordinates (node i gets {@code coordinates.apply(i)}). */
    public static LocalGrid start(String job, int size, IntFunction<Coordinates> coordinates) {
        return start(job, size, coordinates, UnaryOperator.identity());
    }

    /** Nodes with the given coordinates, each with the options {@code tuned} makes of the fixture's. */
    public static LocalGrid start(String job, int size, IntFunction<Coordinates> coordinates,
            UnaryOperator<NodeOptions> tuned) {
        EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start();
        Vertx vertx = Vertx.vertx();
        List<Future<CanopyNode>> starting = new ArrayList<>();
        JobSecret secret = JobSecret.generate();
        for (int i = 0; i < size; i++) {
            NodeOptions options = tuned.apply(NodeOptions.of(JobId.of(job), NodeId.of("n" + i), coordinates.apply(i),
                    size, zooKeeper.connectString(), secret).withHeartbeat(LOADED_MACHINE));
            starting.add(CanopyNode.start(vertx, options));
        }
        List<CanopyNode> nodes = new ArrayList<>();
        for (Future<CanopyNode> node : starting) {
            nodes.add(await(node));
        }
        List<Future<Communicator>> joining = nodes.stream().map(CanopyNode::join).toList();
        List<Communicator> world = new ArrayList<>();
        for (Future<Communicator> communicator : joining) {
            world.add(await(communicator));
        }
        world.sort(Comparator.comparingInt(Communicator::rank));
        return new LocalGrid(zooKeeper, vertx, nodes, world, secret);
    }

    /** Node i: wan group w(i mod 3), site s(i/3 mod 2) of it, host h(i/6 mod 2) of the site. */
    static Coordinates coordinatesOf(int i) {
        String wanGroup = "w" + i % 3;
        String site = wanGroup + "-s" + i / 3 % 2;
        return new Coordinates(wanGroup, site, site + "-lan", site + "-c", site + "-h" + i / 6 % 2);
    }

    /** The secret the grid's nodes share (tests that play an insider use it). */
    public JobSecret secret() {
        return secret;
    }

    /** WORLD on every node, indexed by rank. */
    public List<Communicator> world() {
        return world;
    }

    /** The node holding WORLD rank {@code rank}. */
    public CanopyNode nodeOfRank(int rank) {
        String id = world.get(rank).member(rank).id().value();
        return nodes.stream().filter(node -> node.id().value().equals(id)).findFirst().orElseThrow();
    }

    /**
     * The communicators of a collective call made on every member (split, shrink), awaited and
     * ordered by rank; members that got none (split color UNDEFINED) are left out.
     */
    public static List<Communicator> awaitAll(List<Future<Communicator>> calls) {
        List<Communicator> created = new ArrayList<>();
        for (Future<Communicator> call : calls) {
            Communicator communicator = await(call);
            if (communicator != null) {
                created.add(communicator);
            }
        }
        created.sort(Comparator.comparingInt(Communicator::rank));
        return created;
    }

    public static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(DEADLINE_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("local grid step did not complete within " + DEADLINE_SECONDS + " s: " + e, e);
        }
    }

    /** Waits until {@code future} has completed, either way, and returns it. */
    public static <T> Future<T> awaitOutcome(Future<T> future) {
        try {
            future.toCompletionStage().toCompletableFuture().handle((value, failure) -> null)
                    .get(DEADLINE_SECONDS, TimeUnit.SECONDS);
            return future;
        } catch (Exception e) {
            throw new IllegalStateException("local grid step did not complete within " + DEADLINE_SECONDS + " s: " + e, e);
        }
    }

    @Override
    public void close() {
        List<Future<Void>> closing = nodes.stream().map(CanopyNode::close).toList();
        closing.forEach(future -> future.toCompletionStage().toCompletableFuture().exceptionally(e -> null).join());
        vertx.close().toCompletionStage().toCompletableFuture().exceptionally(e -> null).join();
        zooKeeper.close();
    }
}
