package dev.canopy.core.internal.membership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.internal.membership.testing.TestVertx;
import dev.canopy.core.internal.membership.testing.ZooKeeperServers;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.core.testing.Await;
import dev.canopy.core.testing.TestCertificates;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Opening a session with a connect string or a protocol the server does not take fails naming the fix. */
@Timeout(60)
class ZooKeeperSessionTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path directory;

    private final Vertx vertx = TestVertx.create();

    @AfterEach
    void stop() {
        Await.result(vertx.close(), WAIT);
    }

    @Test
    void anEmptyConnectStringIsRefusedWithTheFix() {
        assertThatThrownBy(() -> Await.result(ZooKeeperSession.open(vertx, " ", Duration.ofSeconds(1), Duration.ofSeconds(1)), WAIT))
                .hasMessageContaining("give host:port");
    }

    @Test
    void aTlsClientAtAPlainPortIsRefusedNamingTheSecurePort() throws Exception {
        ZooKeeperTls tls = ZooKeeperTls.fromDirectory(TestCertificates.writePemDirectory(directory,
                TestCertificates.authority("canopy-test-ca", Duration.ofDays(2))));
        try (TestingServer plain = ZooKeeperServers.server()) {
            Throwable refused = Await.failure(ZooKeeperSession.open(vertx, plain.getConnectString(), Duration.ofSeconds(2),
                    Duration.ofMillis(1500), Optional.empty(), Optional.of(tls)), WAIT);
            assertThat(refused).hasMessageContaining("over TLS").hasMessageContaining("secureClientPort");
        }
    }
}
