package dev.canopy.cli.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.collectives.NodeProcesses.NodeProcess;
import dev.canopy.collectives.run.Canopy;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.core.comm.Message;
import dev.canopy.core.comm.RankFailedException;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.TransportStack;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Future;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code canopy node} told to stop with SIGTERM (as {@code scancel}, a time limit or {@code kill} do) leaves
 * its job cleanly: the other member, in this JVM, sees it leave (a goodbye, not a failure), its member znode
 * is gone by the time the process has exited (it closed its ZooKeeper session rather than letting it time
 * out), and it exits with status 143.
 */
@Tag("multiprocess")
@Timeout(120)
class NodeTerminationTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir
    Path directory;

    @Test
    void sigtermMakesTheNodeSayGoodbyeCloseZooKeeperAndExitWith143() throws Exception {
        Path config = directory.resolve("one-site.rsl");
        Files.writeString(config, "+\n( &(type = subjob) (label = \"alpha\") (count = 2) )\n");
        GridModel grid = GridConfigs.load(config).orElseThrow();
        Path secretFile = directory.resolve("job.key");
        JobSecret.generate().writeTo(secretFile);
        String job = "sigterm-" + System.nanoTime();
        try (TestingServer zooKeeper = new TestingServer(true)) {
            NodeProcess node = NodeProcesses.start(directory, Map.of(), List.of("--config", config.toString(), "--process", "0",
                    "--zk", zooKeeper.getConnectString(), "--job", job, "--class", WaitingProgram.class.getName(),
                    "--secret-file", secretFile.toString()));
            try {
                JoinOptions survivorOptions = new JoinOptions(JobId.of(job), 1, grid, zooKeeper.getConnectString(),
                        TransportStack.none(), JobSecret.fromFile(secretFile));
                CanopySession survivor = CompletableFuture.supplyAsync(() -> Canopy.join(survivorOptions))
                        .get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                try {
                    int terminated = new RankTable(grid).rankOf(0);
                    Future<Message> fromTerminated = survivor.world().receive(terminated, 5);
                    node.awaitOutput("waiting", DEADLINE);

                    node.process().destroy(); // SIGTERM on Linux
                    int status = node.exitStatus(DEADLINE);

                    String output = node.output();
                    assertThat(status).as(output).isEqualTo(143);
                    assertThat(output).contains("canopy: stopping (SIGTERM, SIGINT or System.exit while joined); leaving the job");
                    try (CuratorFramework observer = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(),
                            new RetryOneTime(100))) {
                        observer.start();
                        // A crashed node's znode would stay for the 4 s session timeout; a closed session removed it already.
                        assertThat(observer.checkExists().forPath("/canopy/jobs/" + job + "/members/p0")).as(output).isNull();
                    }
                    Throwable failure = fromTerminated.toCompletionStage().toCompletableFuture()
                            .handle((message, error) -> error).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                    assertThat(failure).as(output).isInstanceOf(RankFailedException.class);
                    assertThat(((RankFailedException) failure).reason()).isEqualTo("it left the job");
                    survivor.leave();
                    survivor.close(); // a session ends once; a second end is a no-op
                } finally {
                    survivor.leave();
                }
            } finally {
                node.process().destroyForcibly();
            }
        }
    }
}
