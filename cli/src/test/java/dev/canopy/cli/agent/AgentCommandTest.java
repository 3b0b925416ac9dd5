package dev.canopy.cli.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyMain;
import dev.canopy.cli.FutureWait;
import dev.canopy.cli.testing.Poll;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.processes.AgentZnodes;
import dev.canopy.processes.Placement;
import dev.canopy.processes.SpawnCommand;
import dev.canopy.processes.SpawnOrder;
import dev.canopy.processes.SpawnedChildren;
import dev.canopy.processes.Spawner;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code canopy agent} in a JVM of its own, serving spawns of real Canopy programs (cold and warm). */
class AgentCommandTest {

    private static final Duration BOUND = Duration.ofSeconds(90);

    @TempDir
    Path directory;

    private EmbeddedZooKeeper zooKeeper;
    private JobSecret secret;
    private Path secretFile;
    private Vertx vertx;
    private CuratorFramework client;
    private Process agent;
    private Path agentOutput;

    @BeforeEach
    void start() throws Exception {
        zooKeeper = EmbeddedZooKeeper.start();
        secret = JobSecret.generate();
        secretFile = directory.resolve("job.key");
        secret.writeTo(secretFile);
        vertx = CanopyVertx.create();
        client = ZooKeeperSession.builder(zooKeeper.connectString(), Duration.ofSeconds(6), Duration.ofSeconds(10),
                Optional.of(ZooKeeperCredentials.of(secret))).build();
        client.start();
        client.blockUntilConnected();
    }

    @AfterEach
    void stop() throws Exception {
        if (agent != null) {
            agent.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
        client.close();
        vertx.close().toCompletionStage().toCompletableFuture().get();
        zooKeeper.close();
    }

    private void startAgent(String pool, int warm) throws Exception {
        agentOutput = directory.resolve("agent.out");
        agent = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), CanopyMain.class.getName(), "agent", "--zk",
                zooKeeper.connectString(), "--secret-file", secretFile.toString(), "--site", "kisti-b", "--pool", pool,
                "--name", "far", "--warm", Integer.toString(warm))
                .redirectErrorStream(true).redirectOutput(agentOutput.toFile()).start();
        Poll.until(BOUND, () -> output().contains("canopy agent far ready"), () -> "the agent did not start:\n" + output());
    }

    private String output() {
        try {
            return Files.readString(agentOutput, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private SpawnOrder order(String job, String program, int count) {
        return SpawnOrder.of(JobId.of(job), new SpawnCommand(program, List.of(), count, Placement.atSites("kisti-b")),
                GridConfigs.defaultGrid(), site -> 0, true).withTimeout(Duration.ofSeconds(90));
    }

    @Test
    void theAgentRunsSpawnedCanopyProgramsColdAndWarmAndTheyEndWithIt() throws Exception {
        startAgent("cli-pool", 2);
        Spawner spawner = new Spawner(vertx, client, new AgentZnodes("cli-pool"));

        SpawnedChildren children = FutureWait.await(spawner.spawn(order("kids-cli", SpawnedAllreduce.class.getName(), 3)), BOUND,
                "the spawn");

        assertThat(children.members()).hasSize(3);
        Poll.until(BOUND, () -> output().contains("[kids-cli#2] spawned allreduce 3 3"), () -> "no allreduce:\n" + output());

        agent.destroy();
        assertThat(agent.waitFor(30, TimeUnit.SECONDS)).as("the agent stops on SIGTERM").isTrue();
        Poll.until(BOUND, () -> ProcessHandle.allProcesses().noneMatch(process -> commandLine(process.pid())
                .contains("-Dcanopy.starter=cli-pool/far")), () -> "children outlived their agent");
    }

    @Test
    void anUnknownProgramFailsTheSpawnWithTheRunnersMessage() throws Exception {
        startAgent("cli-pool-2", 0);
        Spawner spawner = new Spawner(vertx, client, new AgentZnodes("cli-pool-2"));

        Future<SpawnedChildren> spawn = spawner.spawn(order("kids-typo", "demo.NoSuchWorker", 1));
        Poll.until(BOUND, spawn::isComplete, () -> "the spawn of an unknown program did not end");
        assertThat(spawn.failed()).as("the spawn of an unknown program failed").isTrue();
        Throwable failure = spawn.cause();

        assertThat(failure).hasMessageContaining("program class demo.NoSuchWorker is not on the classpath; check --classpath")
                .hasMessageContaining("exit status 2");
    }

    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8);
        } catch (IOException gone) {
            return "";
        }
    }
}
