package dev.canopy.core.security.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.testing.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A ZooKeeper TLS directory is checked once: every way it can be unusable is refused naming the file and the fix. */
class ZooKeeperTlsFilesTest {

    private static final TestCertificates.Issued CA = TestCertificates.authority("canopy-test-ca", Duration.ofDays(2));

    @TempDir
    Path directory;

    @Test
    void aPemDirectoryGivesOneClientItsOwnSettings() {
        ZooKeeperTls tls = ZooKeeperTls.fromDirectory(TestCertificates.writePemDirectory(directory, CA));

        ZKClientConfig config = tls.clientConfig();
        assertThat(config.getBoolean(ZKClientConfig.SECURE_CLIENT)).isTrue();
        assertThat(config.getProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET))
                .isEqualTo("org.apache.zookeeper.ClientCnxnSocketNetty");
        assertThat(config.getProperty("zookeeper.ssl.trustStore.location")).isEqualTo(directory.resolve("ca.pem").toString());
        assertThat(config.getProperty("zookeeper.ssl.keyStore.location")).isEqualTo(directory.resolve("client.pem").toString());
        assertThat(config.getProperty("zookeeper.ssl.keyStore.type")).isEqualTo("PEM");
        assertThat(System.getProperty("zookeeper.client.secure")).as("nothing JVM-wide").isNull();
        assertThat(tls.hasServerKey()).isTrue();
    }

    @Test
    void aMissingDirectoryOrCaIsRefused() throws Exception {
        assertThatThrownBy(() -> ZooKeeperTls.fromDirectory(directory.resolve("nowhere")))
                .hasMessageContaining("is not a directory");
        assertThatThrownBy(() -> ZooKeeperTls.fromDirectory(directory)).hasMessageContaining("has neither ca.pem nor ca.p12");
        Files.writeString(directory.resolve("ca.pem"), "not a certificate\n");
        assertThatThrownBy(() -> ZooKeeperTls.fromDirectory(directory))
                .hasMessageContaining("ZooKeeper TLS file " + directory.resolve("ca.pem"));
    }

    @Test
    void aKeyOthersMayReadIsRefusedNamingChmod() throws Exception {
        TestCertificates.writePemDirectory(directory, CA);
        Path key = directory.resolve("server.pem");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r-----"));

        assertThatThrownBy(() -> ZooKeeperTls.fromDirectory(directory))
                .hasMessageContaining("ZooKeeper TLS file " + key).hasMessageContaining("chmod 600 " + key);
    }

    @Test
    void aKeyFileWithoutAKeyOrAnExpiredCertificateIsRefused() throws Exception {
        TestCertificates.writePemDirectory(directory, CA);
        Path client = directory.resolve("client.pem");
        TestCertificates.writePrivate(client, Files.readString(directory.resolve("ca.pem")));
        assertThatThrownBy(() -> ZooKeeperTls.fromDirectory(directory)).hasMessageContaining(client.toString());

        Instant now = Instant.now();
        TestCertificates.Issued expired = TestCertificates.issue(CA, "expired", now.minus(Duration.ofDays(3)),
                now.minus(Duration.ofDays(1)));
        TestCertificates.writePrivate(client, TestCertificates.keyAndChain(expired, CA));
        assertThatThrownBy(() -> ZooKeeperTls.fromDirectory(directory))
                .hasMessageContaining("ZooKeeper TLS file " + client).hasMessageContaining("expired on");
    }

    @Test
    void aPkcs12DirectoryNeedsItsPassword() throws Exception {
        TestCertificates.writePkcs12Directory(directory, CA);
        assertThat(ZooKeeperTls.fromDirectory(directory).type()).isEqualTo(ZooKeeperTls.StoreType.PKCS12);

        TestCertificates.writePrivate(directory.resolve("password"), "wrong password\n");
        assertThatThrownBy(() -> ZooKeeperTls.fromDirectory(directory)).hasMessageContaining("is the password in");
        Files.delete(directory.resolve("password"));
        assertThatThrownBy(() -> ZooKeeperTls.fromDirectory(directory))
                .hasMessageContaining(directory.resolve("password").toString()).hasMessageContaining("missing");
    }

    @Test
    void withoutAServerKeyTheEmbeddedServerCannotServeTls() throws Exception {
        TestCertificates.writePemDirectory(directory, CA);
        Files.delete(directory.resolve("server.pem"));
        ZooKeeperTls tls = ZooKeeperTls.fromDirectory(directory);

        assertThatThrownBy(tls::serverConfig).hasMessageContaining("has no server.pem");
    }
}
