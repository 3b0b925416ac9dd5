package dev.canopy.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.security.Rejection;
import dev.canopy.core.node.Member;
import dev.canopy.core.security.tls.TlsSettings;
import dev.canopy.core.testing.Await;
import dev.canopy.core.testing.TestPki;
import io.vertx.core.buffer.Buffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS under the handshake, over real sockets on 127.0.0.1: nodes with certificates from the job's CA talk;
 * a peer with a certificate from another CA, one whose certificate lacks the peer name, and a peer without
 * TLS (in either direction) are refused with a message naming the cause, counted, and nobody crashes.
 */
@Timeout(60)
class TlsTransportTest {

    private static final TestPki CA = TestPki.authority("job CA");
    private static final TestPki OTHER_CA = TestPki.authority("other CA");

    @TempDir
    static Path directory;
    private static TlsSettings jobTls;
    private static TlsSettings otherCaTls;
    private static TlsSettings misnamedTls;

    private final TestNodes nodes = new TestNodes(1);
    private final BlockingQueue<Frame> received = new LinkedBlockingQueue<>();
    private Transport server;
    private Transport client;
    private Member toServer;

    @BeforeAll
    static void issue() {
        jobTls = load(CA, "a", CA.issue("canopy-node")).withPeerName("canopy-node");
        otherCaTls = load(OTHER_CA, "other", OTHER_CA.issue("canopy-node"));
        misnamedTls = load(CA, "misnamed", CA.issue("mail-server"));
    }

    @BeforeEach
    void setUp() {
        server = nodes.start(options("server").withTls(jobTls));
        client = nodes.start(options("client").withTls(jobTls));
        toServer = TestNodes.member("server", "s", server);
        server.frameHandler(received::add);
    }

    @AfterEach
    void tearDown() {
        nodes.close();
    }

    @Test
    void nodesWithTheJobsCertificatesExchangeFramesBothWays() throws Exception {
        BlockingQueue<Frame> atClient = new LinkedBlockingQueue<>();
        client.frameHandler(atClient::add);
        Buffer large = Buffer.buffer(new byte[1 << 20]);
        for (int i = 0; i < 10; i++) {
            Await.result(client.send(toServer, TestNodes.data(1, 0, i, Buffer.buffer("frame " + i))));
        }
        Await.result(client.send(toServer, TestNodes.data(1, 0, 10, large)));
        Await.result(server.send(TestNodes.member("client", "c", client), TestNodes.data(0, 1, 0, Buffer.buffer("back"))));

        for (int i = 0; i < 10; i++) {
            assertThat(received.poll(10, TimeUnit.SECONDS).payload().toString()).isEqualTo("frame " + i);
        }
        assertThat(received.poll(10, TimeUnit.SECONDS).payload().length()).isEqualTo(1 << 20);
        assertThat(atClient.poll(10, TimeUnit.SECONDS).payload().toString()).isEqualTo("back");
        assertThat(server.securityCounters().total()).isZero();
        assertThat(client.securityCounters().total()).isZero();
    }

    @Test
    void aPeerWithACertificateFromAnotherCaIsRefusedAndCountedOnBothSides() {
        Transport foreign = nodes.start(options("foreign").withTls(otherCaTls));

        assertThat(Await.failure(foreign.send(toServer, TestNodes.data(1, 0))))
                .isInstanceOf(PeerUnavailableException.class)
                .hasMessageContaining("TLS_HANDSHAKE_FAILED").hasMessageContaining("--tls-ca");
        assertThat(foreign.securityCounters().get(Rejection.TLS_HANDSHAKE_FAILED)).isEqualTo(2);
        Await.until(Duration.ofSeconds(10), () -> server.securityCounters().get(Rejection.TLS_HANDSHAKE_FAILED) == 2, () -> "counted");
        assertMembersStillTalk();
    }

    @Test
    void aPeerWhoseCertificateLacksThePeerNameIsRefused() {
        Transport misnamed = nodes.start(options("misnamed").withTls(misnamedTls));

        assertThat(Await.failure(misnamed.send(toServer, TestNodes.data(1, 0))))
                .isInstanceOf(PeerUnavailableException.class);
        Await.until(Duration.ofSeconds(10), () -> server.securityCounters().get(Rejection.TLS_WRONG_PEER_NAME) == 2, () -> "counted");
        assertThat(received).isEmpty();
        assertMembersStillTalk();
    }

    @Test
    void aPeerWithoutTlsIsRefusedWithTheOptionToFix() {
        Transport plain = nodes.start(options("plain"));

        assertThat(Await.failure(plain.send(toServer, TestNodes.data(1, 0))))
                .isInstanceOf(PeerUnavailableException.class).hasMessageContaining("--tls");
        Await.until(Duration.ofSeconds(10), () -> server.securityCounters().get(Rejection.TLS_PLAINTEXT_PEER) == 2, () -> "counted");

        assertThat(Await.failure(server.send(TestNodes.member("plain", "p", plain), TestNodes.data(0, 1))))
                .isInstanceOf(PeerUnavailableException.class).hasMessageContaining("--tls");
        Await.until(Duration.ofSeconds(10), () -> plain.securityCounters().get(Rejection.TLS_UNEXPECTED) == 2, () -> "counted");
        assertThat(received).isEmpty();
        assertMembersStillTalk();
    }

    private void assertMembersStillTalk() {
        Await.result(client.send(toServer, TestNodes.data(1, 0, 99, Buffer.buffer("still here"))));
        Await.until(Duration.ofSeconds(10),
                () -> received.stream().anyMatch(frame -> frame.payload().toString().equals("still here")),
                () -> "the member's frame after the refusals");
    }

    private static TransportOptions options(String label) {
        return TransportOptions.defaults().withNodeLabel(label).withReconnect(Duration.ofSeconds(2), 2, Duration.ofMillis(20));
    }

    private static TlsSettings load(TestPki ca, String prefix, TestPki.Issued node) {
        TestPki.Files3 files = ca.write(directory, prefix, node);
        return TlsSettings.load(files.certificate(), files.key(), files.ca());
    }
}
