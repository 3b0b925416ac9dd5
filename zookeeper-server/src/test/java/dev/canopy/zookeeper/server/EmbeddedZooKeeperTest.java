package dev.canopy.zookeeper.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.internal.membership.testing.TestVertx;
import dev.canopy.core.testing.Await;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;

/** The embedded server serves clients on loopback with short session timeouts and leaves nothing behind. */
class EmbeddedZooKeeperTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void servesClientsOnLoopbackAndCleansUpOnClose() throws Exception {
        Vertx vertx = TestVertx.create();
        EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start();
        Path dataDirectory;
        try {
            assertThat(zooKeeper.connectString()).startsWith("127.0.0.1:");
            ZooKeeperSession session = Await.result(
                    ZooKeeperSession.open(vertx, zooKeeper.connectString(), Duration.ofSeconds(2), Duration.ofSeconds(10)), WAIT);
            session.client().create().withMode(CreateMode.EPHEMERAL).forPath("/probe", new byte[] {42});
            assertThat(session.client().getData().forPath("/probe")).containsExactly(42);
            // Session timeouts as short as one second are accepted (tests and the demo rely on it).
            assertThat(session.client().getZookeeperClient().getZooKeeper().getSessionTimeout()).isEqualTo(2000);
            Await.result(session.close(), WAIT);
            dataDirectory = zooKeeper.dataDirectory();
            assertThat(dataDirectory).exists();
        } finally {
            zooKeeper.close();
        }

        assertThat(dataDirectory).doesNotExist();
        Throwable refused = Await.failure(ZooKeeperSession.open(vertx, zooKeeper.connectString(), Duration.ofSeconds(1),
                Duration.ofMillis(500)), WAIT);
        assertThat(refused).hasMessageContaining("no ZooKeeper server answered at " + zooKeeper.connectString());
        zooKeeper.close();
        Await.result(vertx.close(), WAIT);
    }
}
