package dev.canopy.dynamic.spawn;

import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.HeartbeatSettings;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.security.tls.TlsSettings;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.core.testing.Await;
import dev.canopy.dynamic.DynamicOptions;
import dev.canopy.dynamic.DynamicProcesses;
import dev.canopy.dynamic.InterCommunicator;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.processes.SpawnCommand;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A parent job of a few processes in this JVM (the bundled 8-site grid, one embedded ZooKeeper, one secret), each
 * with its collectives and its spawn, and local agents that start the children as JVMs of this machine.
 */
final class ParentJob implements AutoCloseable {

    static final HeartbeatSettings LOADED_MACHINE = new HeartbeatSettings(Duration.ofSeconds(1), Duration.ofSeconds(30),
            HeartbeatSettings.DEFAULT_JITTER);
    /** A machine shared with other builds starts a JVM in seconds, not the 0.5 s of an idle one. */
    static final Duration LOADED_SPAWN = Duration.ofSeconds(90);
    static final Duration LOADED_SESSION = Duration.ofSeconds(20);
    private static final AtomicLong JOBS = new AtomicLong();

    record Process(CanopyNode node, Collectives collectives, DynamicProcesses dynamic, DynamicSpawn spawn) {
        int rank() {
            return collectives.rank();
        }
    }

    final GridModel grid = GridConfigs.defaultGrid();
    final EmbeddedZooKeeper zooKeeper;
    final JobSecret secret = JobSecret.generate();
    final Vertx vertx = CanopyVertx.create();
    final String pool = "spawn" + ProcessHandle.current().pid() + "-" + JOBS.incrementAndGet();
    final List<Process> parents = new ArrayList<>();
    final LocalAgents agents;
    private final Optional<TlsSettings> tls;
    private final Optional<ZooKeeperTls> zooKeeperTls;

    /** Parents at the grid's processes {@code at}, local agents with {@code warm} warm JVMs per site. */
    ParentJob(int[] at, int warm) {
        this(at, warm, Optional.empty());
    }

    /** As {@link #ParentJob(int[], int)}, the parents' inter-communicators over TLS with {@code tls}. */
    ParentJob(int[] at, int warm, Optional<TlsSettings> tls) {
        this(at, warm, tls, Optional.empty());
    }

    /**
     * As {@link #ParentJob(int[], int, Optional)}, with a ZooKeeper that has a TLS port only when {@code zooKeeperTls}
     * is given (its directory has the server's key): the parents, their agents and their spawns reach it over TLS.
     */
    ParentJob(int[] at, int warm, Optional<TlsSettings> tls, Optional<ZooKeeperTls> zooKeeperTls) {
        this.tls = tls;
        this.zooKeeperTls = zooKeeperTls;
        zooKeeper = EmbeddedZooKeeper.start(zooKeeperTls);
        agents = LocalAgents.start(grid, options(), pool, warm);
        try {
            JobId job = JobId.of("parents-" + JOBS.incrementAndGet());
            List<Future<Process>> joined = new ArrayList<>();
            for (int index : at) {
                NodeOptions node = NodeOptions.of(job, NodeId.of("p" + index), grid.processes().get(index).coordinates(),
                        at.length, zooKeeper.connectString(), secret).withHeartbeat(LOADED_MACHINE)
                        .withSessionTimeout(LOADED_SESSION);
                node = zooKeeperTls.map(node::withZooKeeperTls).orElse(node);
                joined.add(CanopyNode.start(vertx, node).compose(started -> started.join().map(world -> {
                    Collectives collectives = new Collectives(world, ConfiguredPlans.of(world.members(), grid),
                            CollectiveSettings.defaults());
                    DynamicProcesses dynamic = DynamicProcesses.over(collectives, grid, options());
                    return new Process(started, collectives, dynamic, DynamicSpawn.over(collectives, grid, dynamic,
                            SpawnSettings.DEFAULTS.withPool(pool).withTimeout(LOADED_SPAWN)));
                })));
            }
            joined.forEach(process -> parents.add(Await.result(process, Duration.ofSeconds(60))));
            parents.sort(Comparator.comparingInt(Process::rank));
        } catch (RuntimeException | AssertionError e) {
            close();
            throw e;
        }
    }

    DynamicOptions options() {
        DynamicOptions options = DynamicOptions.of(zooKeeper.connectString(), secret).withNamespace(pool)
                .withHeartbeat(LOADED_MACHINE);
        options = zooKeeperTls.map(options::withZooKeeperTls).orElse(options);
        return tls.map(options::withTls).orElse(options);
    }

    /** Every parent spawns {@code commands} with root 0. */
    List<Future<InterCommunicator>> spawn(List<SpawnCommand> commands) {
        return parents.stream().map(parent -> parent.spawn().spawnMultiple(parent.rank() == 0 ? commands : List.of(), 0))
                .toList();
    }

    /** The live child JVMs of this job's local agents, anywhere on the machine. */
    long children() {
        return ChildCount.of(pool);
    }

    @Override
    public void close() {
        parents.forEach(parent -> {
            parent.spawn().close();
            parent.dynamic().close();
            Await.result(parent.node().close(), Duration.ofSeconds(30));
        });
        agents.close();
        Await.result(vertx.close(), Duration.ofSeconds(30));
        zooKeeper.close();
    }
}
