package dev.canopy.dashboard.zk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.JobId;
import dev.canopy.core.testing.Await;
import dev.canopy.dashboard.model.DashboardState;
import dev.canopy.dashboard.model.MemberState;
import dev.canopy.dashboard.plan.ReplanGain;
import dev.canopy.gridconfig.GridConfigs;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The reader keeps the last state while ZooKeeper is down, says so in the source status, and reads on once the
 * server is back (a real server, stopped and restarted on the same port and data).
 */
@Timeout(120)
class JobReaderReconnectTest {

    private static final String MEMBER = """
            {"id":"n1","coordinates":{"wanGroup":"w","site":"s","lanId":"l","cluster":"c","host":"h"},
             "address":{"host":"127.0.0.1","tcpPort":40001,"udpPort":40002}}""";

    @Test
    void keepsTheLastStateWhileZooKeeperIsDownAndReadsOnWhenItIsBack() throws Exception {
        Vertx vertx = CanopyVertx.create();
        try (TestingServer server = new TestingServer(true);
                // One quick retry, so that a read fails (and the status says so) within a second of the server stopping.
                CuratorFramework client = ZooKeeperSession.builder(server.getConnectString(), Duration.ofSeconds(30),
                        Duration.ofSeconds(1), Optional.empty()).retryPolicy(new RetryOneTime(100)).build()) {
            client.start();
            client.create().creatingParentsIfNeeded().forPath("/canopy/jobs/j/members/n1", MEMBER.getBytes(StandardCharsets.UTF_8));
            client.create().forPath("/canopy/jobs/j/start", ("{\"members\":[" + MEMBER + "]}").getBytes(StandardCharsets.UTF_8));
            DashboardState state = new DashboardState("j");
            JobReader reader = JobReader.start(vertx, client, JobId.of("j"), Optional.empty(), state, new ReplanGain(GridConfigs.defaultGrid()),
                    Optional.empty(), Duration.ofMillis(100));
            Await.until(() -> state.sourceStatus().equals("ok") && state.snapshot().members().size() == 1,
                    () -> "one member read, status " + state.sourceStatus());

            server.stop();
            Await.until(Duration.ofSeconds(60), () -> state.sourceStatus().contains("failed"),
                    () -> "an error status while ZooKeeper is down, got " + state.sourceStatus());
            assertThat(state.snapshot().members()).hasSize(1);
            assertThat(state.snapshot().members().get(0).state()).isEqualTo(MemberState.JOINED);

            server.restart();
            Await.until(Duration.ofSeconds(60), () -> state.sourceStatus().equals("ok"),
                    () -> "ok again after the restart, got " + state.sourceStatus());
            client.delete().forPath("/canopy/jobs/j/members/n1");
            Await.until(() -> state.snapshot().members().get(0).state() == MemberState.LEFT, () -> "n1 left");
            Await.result(reader.close());
        } finally {
            Await.result(vertx.close());
        }
    }
}
