package dev.canopy.cli.collectives;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.security.tls.ZooKeeperTls;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Over ssh, the embedded ZooKeeper's certificate must name the address the hosts reach it at, checked up front. */
class EmbeddedZooKeeperCertificateTest {

    @TempDir
    Path directory;

    @Test
    void aCertificateForTheLoopbackOnlyIsRefusedNamingTheAddressAndTheFix() throws Exception {
        ZooKeeperTls tls = ZooKeeperTls.fromDirectory(ZooKeeperTlsKeys.create(directory.resolve("zk-tls"),
                "ip:127.0.0.1,dns:localhost"));
        assertThatThrownBy(() -> EmbeddedZooKeeperCertificate.requireAddress(tls, "10.1.0.1"))
                .hasMessageContaining("the embedded ZooKeeper listens on 10.1.0.1")
                .hasMessageContaining("server.p12 names only [127.0.0.1]")
                .hasMessageContaining("keytool -ext san=ip:10.1.0.1");
    }

    @Test
    void aCertificateThatNamesTheAddressPasses() throws Exception {
        ZooKeeperTls tls = ZooKeeperTls.fromDirectory(ZooKeeperTlsKeys.create(directory.resolve("zk-tls"),
                "ip:127.0.0.1,ip:10.1.0.1"));
        assertThatCode(() -> EmbeddedZooKeeperCertificate.requireAddress(tls, "10.1.0.1")).doesNotThrowAnyException();
    }
}
