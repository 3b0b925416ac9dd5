package dev.canopy.core.node;

import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.membership.testing.TestVertx;
import dev.canopy.core.internal.membership.testing.ZooKeeperServers;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.curator.test.TestingServer;

/**
 * A job of real nodes in this JVM, sharing a job secret made for it: a ZooKeeper test server, one Vert.x, one event loop and real
 * loopback sockets per node. {@link #worlds()} is indexed by WORLD rank.
 */
public final class LocalJob implements AutoCloseable {

    public static final Duration WAIT = Duration.ofSeconds(30);
    public static final Duration SESSION = Duration.ofSeconds(2);

    private final TestingServer zooKeeper;
    private final Vertx vertx;
    private final List<CanopyNode> nodes;
    private final List<Communicator> worlds;
    private final JobSecret secret;

    private LocalJob(TestingServer zooKeeper, Vertx vertx, List<CanopyNode> nodes, List<Communicator> worlds,
            JobSecret secret) {
        this.zooKeeper = zooKeeper;
        this.vertx = vertx;
        this.nodes = nodes;
        this.worlds = worlds;
        this.secret = secret;
    }

    /** Changes the options of the node with index {@code i} (id {@code n<i>}) before it starts. */
    @FunctionalInterface
    public interface Tailor {
        NodeOptions apply(int i, NodeOptions options);
    }

    /** Starts and joins one node per coordinate; node ids are {@code n0, n1, ...} in the given order. */
    public static LocalJob start(String job, List<Coordinates> coordinates) {
        return start(job, coordinates, (i, options) -> options);
    }

    /** As {@link #start(String, List)}, with each node's options changed by {@code tailor}. */
    public static LocalJob start(String job, List<Coordinates> coordinates, Tailor tailor) {
        TestingServer zooKeeper;
        try {
            zooKeeper = ZooKeeperServers.server();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start a ZooKeeper test server: " + e, e);
        }
        Vertx vertx = TestVertx.create();
        List<CanopyNode> nodes = new ArrayList<>();
        JobSecret secret = JobSecret.generate();
        for (int i = 0; i < coordinates.size(); i++) {
            NodeOptions options = NodeOptions.of(JobId.of(job), NodeId.of("n" + i), coordinates.get(i),
                    coordinates.size(), zooKeeper.getConnectString(), secret).withSessionTimeout(SESSION);
            options = tailor.apply(i, options);
            nodes.add(Await.result(CanopyNode.start(vertx, options), WAIT));
        }
        List<Future<Communicator>> joins = nodes.stream().map(CanopyNode::join).toList();
        List<Communicator> worlds = new ArrayList<>(joins.stream().map(f -> Await.result(f, WAIT)).toList());
        worlds.sort(Comparator.comparingInt(Communicator::rank));
        List<CanopyNode> byRank = new ArrayList<>(nodes);
        byRank.sort(Comparator.comparingInt(node -> node.world().orElseThrow().rank()));
        return new LocalJob(zooKeeper, vertx, byRank, worlds, secret);
    }

    /** {@code count} nodes on {@code sites} sites (round robin), one host each. */
    public static List<Coordinates> spreadOver(int count, int sites) {
        List<Coordinates> coordinates = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String site = "site" + (i % sites);
            coordinates.add(new Coordinates("wan" + (i % sites) / 2, site, site + "-lan", site + "-c", "h" + i));
        }
        return coordinates;
    }

    /** The secret the job's nodes share (tests that play an insider use it). */
    public JobSecret secret() {
        return secret;
    }

    public List<Communicator> worlds() {
        return worlds;
    }

    public Communicator world(int rank) {
        return worlds.get(rank);
    }

    public CanopyNode node(int rank) {
        return nodes.get(rank);
    }

    public int size() {
        return nodes.size();
    }

    @Override
    public void close() {
        nodes.forEach(node -> Await.result(node.close(), WAIT));
        Await.result(vertx.close(), WAIT);
        try {
            zooKeeper.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stop the ZooKeeper test server", e);
        }
    }
}
