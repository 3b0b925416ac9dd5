package dev.canopy.processes;

import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;

/**
 * A test's pool: an embedded ZooKeeper, a job secret in a file, agents started in this JVM (their children are
 * real JVMs running {@link JoiningEntry}), and the parent root's spawner on a client with the secret's identity.
 * A test class holds one per test ({@code @AutoClose final AgentPool pool = AgentPool.start();}); closing it
 * stops the agents and fails the test when any of their children outlives them.
 */
final class AgentPool implements AutoCloseable {

    private static final AtomicInteger POOLS = new AtomicInteger();

    final EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start();
    final JobSecret secret = JobSecret.generate();
    final Path secretFile;
    final String pool = "pool" + ProcessHandle.current().pid() + "-" + POOLS.incrementAndGet();
    final GridModel grid = GridConfigs.defaultGrid();
    final Vertx vertx = CanopyVertx.create();
    final CuratorFramework client;
    final Spawner spawner;
    private final List<LaunchAgent> agents = new ArrayList<>();

    private AgentPool() throws Exception {
        secretFile = secret.writeTemporary();
        client = ZooKeeperSession.builder(zooKeeper.connectString(), Duration.ofSeconds(6), Duration.ofSeconds(10),
                Optional.of(ZooKeeperCredentials.of(secret))).build();
        client.start();
        client.blockUntilConnected();
        spawner = new Spawner(vertx, client, new AgentZnodes(pool));
    }

    /** A new pool; a failure to set it up fails the test. */
    static AgentPool start() {
        try {
            return new AgentPool();
        } catch (Exception e) {
            throw new IllegalStateException("could not set up the agent pool: " + e.getMessage(), e);
        }
    }

    /** The label of the children of this pool's agents (for counting them). */
    String label() {
        return pool;
    }

    LaunchAgent agent(String name, String site, int warm) throws Exception {
        AgentOptions options = new AgentOptions(pool, name, "host-" + name, site, warm,
                ChildStarter.sameClasspath(pool, JoiningEntry.class.getName()), zooKeeper.connectString(), Optional.empty(),
                secretFile, secret);
        LaunchAgent agent = LaunchAgent.start(options);
        agents.add(agent);
        return agent;
    }

    SpawnOrder order(String job, Class<?> program, int count, Placement placement, List<String> arguments) {
        return SpawnOrder.of(JobId.of(job), new SpawnCommand(program.getName(), arguments, count, placement), grid,
                site -> site.equals("yonsei-a") ? 0 : grid.linkBetween("yonsei-a", site).rttMs(), false);
    }

    @Override
    public void close() throws Exception {
        agents.forEach(LaunchAgent::close);
        client.close();
        vertx.close().toCompletionStage().toCompletableFuture().get();
        zooKeeper.close();
        Files.deleteIfExists(secretFile);
        Await.until(() -> ChildProcesses.count(pool) == 0, () -> "children of " + pool + " outlived the test");
    }
}
