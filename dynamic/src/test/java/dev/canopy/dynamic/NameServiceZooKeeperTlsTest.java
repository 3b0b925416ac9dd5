package dev.canopy.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.core.testing.Await;
import dev.canopy.core.testing.TestCertificates;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The name service of a job run with {@code --zk-tls}: its ensemble has a TLS port only. With the job's ZooKeeper
 * TLS files (DynamicOptions.withZooKeeperTls, CANOPY_ZK_TLS) ports and names work; without them the name service
 * fails naming the option, in bounded time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NameServiceZooKeeperTlsTest {

    @TempDir
    Path directory;

    @Test
    void theNameServiceReachesATlsOnlyEnsembleWithTheJobsZooKeeperTlsFiles() {
        ZooKeeperTls tls = ZooKeeperTls.fromDirectory(TestCertificates.writePemDirectory(directory,
                TestCertificates.authority("canopy-test-ca", Duration.ofDays(2))));
        Vertx vertx = CanopyVertx.create();
        try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start(Optional.of(tls))) {
            DynamicOptions plain = DynamicOptions.of(zooKeeper.connectString(), JobSecret.generate()).withNamespace("tls");
            NameService service = Await.result(NameService.open(vertx, plain.withZooKeeperTls(tls)), Duration.ofSeconds(60));
            try {
                PortName port = Await.result(service.openPort());
                Await.result(service.publishName("over-tls", port));
                assertThat(Await.result(service.lookupName("over-tls"))).isEqualTo(port);
                assertThat(Await.result(service.portKey(port))).hasSize(JobSecret.BYTES);
            } finally {
                Await.result(service.closeAsync());
            }
            assertThat(Await.failure(NameService.open(vertx, plain), Duration.ofSeconds(60))).hasMessageContaining("--zk-tls");
        } finally {
            Await.result(vertx.close());
        }
    }
}
