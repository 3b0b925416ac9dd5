package dev.canopy.zookeeper.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.Message;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.internal.membership.testing.TestVertx;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.LocalJob;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.core.testing.Await;
import dev.canopy.core.testing.TestCertificates;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * ZooKeeper over TLS: an embedded server whose only client port is a TLS port, a three-node job whose
 * ZooKeeper clients talk TLS to it (membership, start barrier, messages), and a plain client refused within its
 * connection timeout with a message that names {@code --zk-tls}. (A TLS client at a plain port: core's
 * {@code ZooKeeperSessionTest}.)
 */
@Timeout(120)
class ZooKeeperTlsTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration CONNECT = Duration.ofMillis(1500);
    private static final TestCertificates.Issued CA = TestCertificates.authority("canopy-test-ca", Duration.ofDays(2));

    @TempDir
    Path directory;

    private final Vertx vertx = TestVertx.create();
    private final List<CanopyNode> nodes = new ArrayList<>();

    @AfterEach
    void stop() {
        closeNodes();
        Await.result(vertx.close(), WAIT);
    }

    private void closeNodes() {
        nodes.forEach(node -> Await.result(node.close(), WAIT));
        nodes.clear();
    }

    @Test
    void aJobRunsOverTlsAgainstAServerWithOnlyASecurePortAndAPlainClientIsRefusedNamingTheOption() {
        ZooKeeperTls tls = ZooKeeperTls.fromDirectory(TestCertificates.writePemDirectory(directory, CA));
        try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start(Optional.of(tls))) {
            assertThat(zooKeeper.secure()).isTrue();
            List<Communicator> worlds = join(zooKeeper, tls, 3);

            List<Future<Message>> received = new ArrayList<>();
            for (Communicator world : worlds) {
                int next = (world.rank() + 1) % worlds.size();
                Await.result(world.send(next, 7, Buffer.buffer("from " + world.rank())), WAIT);
                received.add(world.receive((world.rank() + worlds.size() - 1) % worlds.size(), 7));
            }
            for (int rank = 0; rank < worlds.size(); rank++) {
                int from = (rank + worlds.size() - 1) % worlds.size();
                assertThat(Await.result(received.get(rank), WAIT).payload().toString()).isEqualTo("from " + from);
            }

            long start = System.nanoTime();
            Throwable refused = Await.failure(ZooKeeperSession.open(vertx, zooKeeper.connectString(), Duration.ofSeconds(2),
                    CONNECT), WAIT);
            Duration waited = Duration.ofNanos(System.nanoTime() - start);
            assertThat(refused).hasMessageContaining("no ZooKeeper server answered at " + zooKeeper.connectString())
                    .hasMessageContaining("connect with --zk-tls");
            assertThat(waited).as("bounded by the connection timeout, not a hang").isLessThan(CONNECT.multipliedBy(8));
            closeNodes();
        }
    }

    @Test
    void aPkcs12DirectoryServesAndConnectsToo() throws Exception {
        ZooKeeperTls tls = ZooKeeperTls.fromDirectory(TestCertificates.writePkcs12Directory(directory, CA));
        assertThat(tls.type()).isEqualTo(ZooKeeperTls.StoreType.PKCS12);
        try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start(Optional.of(tls))) {
            ZooKeeperSession session = Await.result(ZooKeeperSession.open(vertx, zooKeeper.connectString(),
                    Duration.ofSeconds(2), Duration.ofSeconds(20), Optional.empty(), Optional.of(tls)), WAIT);
            session.client().create().withMode(CreateMode.EPHEMERAL).forPath("/over-tls", new byte[] {7});
            assertThat(session.client().getData().forPath("/over-tls")).containsExactly(7);
            Await.result(session.close(), WAIT);
        }
    }

    private List<Communicator> join(EmbeddedZooKeeper zooKeeper, ZooKeeperTls tls, int size) {
        JobSecret secret = JobSecret.generate();
        for (int i = 0; i < size; i++) {
            NodeOptions options = NodeOptions.of(JobId.of("over-tls"), NodeId.of("n" + i),
                            LocalJob.spreadOver(size, 2).get(i), size, zooKeeper.connectString(), secret)
                    .withSessionTimeout(Duration.ofSeconds(2)).withZooKeeperTls(tls);
            nodes.add(Await.result(CanopyNode.start(vertx, options), WAIT));
        }
        List<Future<Communicator>> joins = nodes.stream().map(CanopyNode::join).toList();
        List<Communicator> worlds = new ArrayList<>(joins.stream().map(join -> Await.result(join, WAIT)).toList());
        worlds.sort(Comparator.comparingInt(Communicator::rank));
        return worlds;
    }

}
