package dev.canopy.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Every way a spawn fails ends the parent's future with a clear error within the timeout, and leaves no process
 * behind: the tests count the pool's child JVMs on the whole machine before and after.
 */
class SpawnFailureTest {

    private static final Duration BOUND = Duration.ofSeconds(60);

    @AutoClose
    private final AgentPool pool = AgentPool.start();

    @Test
    void anUnknownProgramClassFailsNamingIt() throws Exception {
        pool.agent("a", "kut-a", 0);
        assertThat(ChildProcesses.count(pool.label())).isZero();

        SpawnOrder order = SpawnOrder.of(JobId.of("kids-unknown"), new SpawnCommand("no.such.Program", List.of(), 2,
                Placement.automatic()), pool.grid, site -> 0, false);
        Throwable failure = Await.failure(pool.spawner.spawn(order), BOUND);

        assertThat(failure).isInstanceOf(SpawnFailedException.class)
                .hasMessageContaining("no.such.Program is not on the classpath")
                .hasMessageContaining("exit status 2");
        Await.until(() -> ChildProcesses.count(pool.label()) == 0, () -> "children left after the failed spawn");
    }

    @Test
    void aChildThatExitsBeforeJoiningFailsTheSpawnAndTheOthersAreKilled() throws Exception {
        pool.agent("a", "kut-a", 0);
        pool.agent("b", "kut-b", 0);

        Throwable failure = Await.failure(pool.spawner.spawn(pool.order("kids-exit", Programs.ExitSeven.class, 3,
                Placement.automatic(), List.of("no-join"))), BOUND);

        assertThat(failure).hasMessageContaining("exit status 7").hasMessageContaining("exiting with status 7");
        Await.until(() -> ChildProcesses.count(pool.label()) == 0, () -> "children left after the failed spawn");
    }

    @Test
    void childrenThatNeverJoinFailTheSpawnAtTheTimeout() throws Exception {
        pool.agent("a", "kut-a", 0);

        long started = System.nanoTime();
        Throwable failure = Await.failure(pool.spawner.spawn(pool.order("kids-silent", Programs.Stay.class, 2,
                Placement.automatic(), List.of("no-join")).withTimeout(Duration.ofSeconds(3))), BOUND);

        assertThat(failure).hasMessageContaining("not every child joined within 3000 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
        Await.until(() -> ChildProcesses.count(pool.label()) == 0, () -> "children left after the timeout");
    }

    @Test
    void anAgentThatDiesFailsTheSpawnAndItsChildrenEndWithIt() throws Exception {
        Process agent = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), AgentMain.class.getName(), pool.zooKeeper.connectString(),
                pool.pool, "doomed", "kisti-a", pool.secretFile.toString())).redirectErrorStream(true).start();
        try {
            BufferedReader output = new BufferedReader(new InputStreamReader(agent.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = output.readLine()) != null && !line.contains("agent ready")) {
                // start-up log lines
            }
            Future<SpawnedChildren> spawn = pool.spawner.spawn(pool.order("kids-orphans", Programs.Stay.class, 2, Placement.automatic(),
                    List.of("no-join")));
            Await.until(BOUND, () -> ChildProcesses.count(pool.label()) == 2, () -> "the agent's two children started");

            agent.destroyForcibly();

            assertThat(Await.failure(spawn, BOUND)).hasMessageContaining("agent doomed on host host-doomed left the pool");
            Await.until(() -> ChildProcesses.count(pool.label()) == 0, () -> "the dead agent's children are orphans");
        } finally {
            agent.destroyForcibly();
        }
    }

    @Test
    void placementNamingAnAbsentSiteFailsListingTheAgents() throws Exception {
        pool.agent("a", "kut-a", 0);

        Throwable failure = Await.failure(pool.spawner.spawn(pool.order("kids-nowhere", Programs.Stay.class, 1,
                Placement.atSites("kisti-b"), List.of())), BOUND);

        assertThat(failure).hasMessageContaining("no agent fits the placement").hasMessageContaining("a (host host-a, site kut-a)");
    }

    @Test
    void aClientWithoutTheSecretCanNeitherSeeAgentsNorWriteRequests() throws Exception {
        pool.agent("a", "kut-a", 0);
        CuratorFramework stranger = ZooKeeperSession.builder(pool.zooKeeper.connectString(), Duration.ofSeconds(6),
                Duration.ofSeconds(10), Optional.of(ZooKeeperCredentials.of(JobSecret.generate()))).build();
        stranger.start();
        try {
            stranger.blockUntilConnected();
            AgentZnodes znodes = new AgentZnodes(pool.pool);
            assertThatThrownBy(() -> stranger.getChildren().forPath(znodes.hosts()))
                    .isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> stranger.create().forPath(
                    znodes.request("a", JobId.of("evil")), new byte[] {'{', '}'}))
                    .isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> stranger.delete().forPath(znodes.host("a")))
                    .isInstanceOf(KeeperException.NoAuthException.class);
        } finally {
            stranger.close();
        }
    }
}
