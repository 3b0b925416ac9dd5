package dev.canopy.cli.dashboard;

import static dev.canopy.cli.dashboard.DashboardClient.awaitUrl;
import static dev.canopy.cli.dashboard.DashboardClient.get;
import static dev.canopy.cli.dashboard.DashboardClient.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.collectives.ZooKeeperTlsKeys;
import dev.canopy.cli.testing.Poll;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code canopy dashboard --zk-tls DIR} reads a ZooKeeper that has a TLS port only; without it, it says what to add. */
@Timeout(120)
class DashboardOverZooKeeperTlsTest {

    @TempDir
    Path directory;

    @Test
    void readsAZooKeeperThatSpeaksOnlyTlsAndWithoutZkTlsNamesTheOption() throws Exception {
        Path tls = ZooKeeperTlsKeys.create(directory.resolve("zk-tls"), "ip:127.0.0.1,dns:localhost");
        try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start("127.0.0.1", Optional.of(ZooKeeperTls.fromDirectory(tls)))) {
            StringWriter out = new StringWriter();
            CompletableFuture<Integer> exit = run(out, "dashboard", "--zk", zooKeeper.connectString(), "--zk-tls",
                    tls.toString(), "--job", "tls-read", "--duration", "5");
            String url = awaitUrl(out, exit);
            Poll.until(Duration.ofSeconds(30), () -> get(url + "api/grid").getString("source_status").equals("ok"),
                    () -> "a read over TLS, got " + get(url + "api/grid").getString("source_status"));
            assertThat(exit.get(30, TimeUnit.SECONDS)).isZero();

            StringWriter plain = new StringWriter();
            CompletableFuture<Integer> refused = run(plain, "dashboard", "--zk", zooKeeper.connectString(), "--job",
                    "tls-read", "--duration", "5");
            assertThat(refused.get(60, TimeUnit.SECONDS)).as(plain.toString()).isEqualTo(1);
            assertThat(plain.toString()).contains("--zk-tls");
        }
    }
}
