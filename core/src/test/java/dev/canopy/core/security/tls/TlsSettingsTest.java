package dev.canopy.core.security.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.testing.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Every unusable TLS file is refused when loaded, with a message naming the file and the fix. */
@Timeout(30)
class TlsSettingsTest {

    private static final TestPki CA = TestPki.authority("test job CA");
    private static final TestPki OTHER_CA = TestPki.authority("another CA");
    private static TestPki.Issued node;

    @TempDir
    Path directory;

    @BeforeAll
    static void issue() {
        node = CA.issue("canopy-node");
    }

    @Test
    void goodFilesLoad() {
        TestPki.Files3 files = CA.write(directory, "node", node);

        TlsSettings settings = TlsSettings.load(files.certificate(), files.key(), files.ca());

        assertThat(settings.certificate()).isEqualTo(node.certificate());
        assertThat(settings.peerName()).isEmpty();
        assertThat(settings.refusal(List.of(node.certificate()))).isEmpty();
    }

    @Test
    void aMissingFileIsNamedWithTheOptionThatGivesIt() {
        TestPki.Files3 files = CA.write(directory, "node", node);
        Path missing = directory.resolve("nope.crt");

        assertThatThrownBy(() -> TlsSettings.load(missing, files.key(), files.ca()))
                .isInstanceOf(TlsFileException.class)
                .hasMessageContaining("TLS certificate file " + missing + " does not exist")
                .hasMessageContaining("--tls-cert").hasMessageContaining("canopy keys");
    }

    @Test
    void swappedCertificateAndKeyAreRecognised() {
        TestPki.Files3 files = CA.write(directory, "node", node);

        assertThatThrownBy(() -> TlsSettings.load(files.key(), files.certificate(), files.ca()))
                .hasMessageContaining("TLS certificate file " + files.key() + " holds a private key")
                .hasMessageContaining("swapped");
    }

    @Test
    void aFileWithoutPemIsRefused() throws Exception {
        TestPki.Files3 files = CA.write(directory, "node", node);
        Files.writeString(files.ca(), "not a certificate\n");

        assertThatThrownBy(() -> TlsSettings.load(files.certificate(), files.key(), files.ca()))
                .hasMessageContaining("TLS CA file " + files.ca() + " holds no PEM block");
    }

    @Test
    void aKeyInTheTraditionalFormatGetsTheConversionCommand() throws Exception {
        TestPki.Files3 files = CA.write(directory, "node", node);
        Files.writeString(files.key(), TestPki.pem("EC PRIVATE KEY", new byte[] {1, 2, 3}));

        assertThatThrownBy(() -> TlsSettings.load(files.certificate(), files.key(), files.ca()))
                .hasMessageContaining("TLS private key file " + files.key())
                .hasMessageContaining("openssl pkcs8 -topk8 -nocrypt");
    }

    @Test
    void aKeyOthersMayReadIsRefused() throws Exception {
        TestPki.Files3 files = CA.write(directory, "node", node);
        Files.setPosixFilePermissions(files.key(), PosixFilePermissions.fromString("rw-r--r--"));

        assertThatThrownBy(() -> TlsSettings.load(files.certificate(), files.key(), files.ca()))
                .hasMessageContaining("may be read or changed by others").hasMessageContaining("chmod 600");
    }

    @Test
    void aKeyThatIsNotTheCertificatesIsRefused() throws Exception {
        TestPki.Files3 files = CA.write(directory, "node", node);
        TestPki.Files3 other = CA.write(directory, "other", CA.issue("canopy-node"));

        assertThatThrownBy(() -> TlsSettings.load(files.certificate(), other.key(), files.ca()))
                .hasMessageContaining("TLS private key file " + other.key() + " is not the key of certificate "
                        + files.certificate());
    }

    @Test
    void anExpiredCertificateIsRefusedWithItsDate() {
        Instant now = Instant.now();
        TestPki.Issued expired = CA.issue("canopy-node", now.minus(Duration.ofDays(3)), now.minus(Duration.ofDays(2)));
        TestPki.Files3 files = CA.write(directory, "expired", expired);

        assertThatThrownBy(() -> TlsSettings.load(files.certificate(), files.key(), files.ca()))
                .hasMessageContaining("TLS certificate file " + files.certificate())
                .hasMessageContaining("expired on " + expired.certificate().getNotAfter().toInstant())
                .hasMessageContaining("canopy keys");
        // The same files were fine while the certificate was valid.
        assertThat(TlsSettings.load(files.certificate(), files.key(), files.ca(), now.minus(Duration.ofHours(60))))
                .isNotNull();
    }

    @Test
    void aCertificateFromAnotherCaIsRefused() throws Exception {
        TestPki.Files3 files = CA.write(directory, "node", node);
        TestPki.Files3 foreign = OTHER_CA.write(directory, "foreign", OTHER_CA.issue("canopy-node"));

        assertThatThrownBy(() -> TlsSettings.load(files.certificate(), files.key(), foreign.ca()))
                .hasMessageContaining("is not issued by the CA in " + foreign.ca());
    }

    @Test
    void thePeerNameIsCheckedAgainstTheSubjectAlternativeNames() {
        TestPki.Files3 files = CA.write(directory, "node", node);
        TlsSettings named = TlsSettings.load(files.certificate(), files.key(), files.ca()).withPeerName("canopy-node");

        assertThat(named.refusal(List.of(CA.issue("canopy-node").certificate()))).isEmpty();
        assertThat(named.refusal(List.of(CA.issue("mail-server").certificate())))
                .hasValueSatisfying(why -> assertThat(why).contains("[mail-server]", "canopy-node"));
    }

    @Test
    void aDirectoryOfCanopyKeysLayoutAndTheEnvironmentRoundTrip() throws Exception {
        TestPki.Files3 files = CA.write(directory, "node", node);
        Files.move(files.ca(), directory.resolve(TlsSettings.CA_FILE));

        TlsSettings settings = TlsSettings.fromDirectory(directory, 3);
        Map<String, String> environment = settings.environment();
        TlsSettings again = TlsSettings.fromEnvironment(environment).orElseThrow();

        assertThat(settings.peerName()).contains(TlsSettings.JOB_PEER_NAME);
        assertThat(again.certificate()).isEqualTo(node.certificate());
        assertThat(again.peerName()).contains(TlsSettings.JOB_PEER_NAME);
        assertThat(environment.values()).noneMatch(value -> value.contains("PRIVATE"));
        assertThat(TlsSettings.fromEnvironment(Map.of())).isEmpty();
    }
}
