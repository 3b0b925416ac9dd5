package dev.canopy.collectives.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.segmentation.SegmentationThresholds;
import dev.canopy.core.membership.ZooKeeperCredentials;
import dev.canopy.core.membership.ZooKeeperSession;
import dev.canopy.core.membership.testing.ZooKeeperServers;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The calibration in ZooKeeper against a process without the deployment's secret: it cannot change or delete
 * it, and what it plants (at another grid, or after a holder's thresholds were tampered with) is not used.
 */
@Timeout(60)
class SegmentationStoreTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Id ANYONE = new Id("world", "anyone");
    private static final int READ = 1;
    private static final int ALL = 31;
    private static final JsonObject DOCUMENT = new JsonObject().put("grid", "g")
            .put("thresholds", new JsonObject().put("S", 4096).put("M1", 1024).put("M2", 8192));

    private final Vertx vertx = Vertx.vertx();
    private final JobSecret secret = JobSecret.generate();
    private final List<ZooKeeperSession> sessions = new ArrayList<>();
    private TestingServer zooKeeper;
    private CuratorFramework foreigner;

    @BeforeEach
    void start() throws Exception {
        zooKeeper = ZooKeeperServers.server();
        foreigner = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), new RetryOneTime(100));
        foreigner.start();
    }

    @AfterEach
    void stop() throws Exception {
        foreigner.close();
        sessions.forEach(session -> Await.result(session.close(), WAIT));
        Await.result(vertx.close(), WAIT);
        zooKeeper.close();
    }

    private SegmentationStore store(JobSecret of) {
        ZooKeeperSession session = Await.result(ZooKeeperSession.open(vertx, zooKeeper.getConnectString(),
                Duration.ofSeconds(4), WAIT, Optional.of(ZooKeeperCredentials.of(of))), WAIT);
        sessions.add(session);
        return new SegmentationStore(vertx, session.client(), of);
    }

    @Test
    void theSecretsHoldersReadWhatItWroteAndNobodyElseCanChangeOrDeleteIt() throws Exception {
        Await.result(store(secret).save("g", DOCUMENT), WAIT);

        assertThat(Await.result(store(secret).load("g"), WAIT))
                .contains(SegmentationThresholds.fromJson(DOCUMENT.getJsonObject("thresholds")));
        String path = SegmentationStore.path("g");
        assertThatThrownBy(() -> foreigner.setData().forPath(path, "{}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> foreigner.delete().forPath(path)).isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> foreigner.delete().deletingChildrenIfNeeded().forPath("/canopy/config/g"))
                .isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> foreigner.setACL().withACL(List.of(new ACL(ALL, ANYONE))).forPath(path))
                .isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> foreigner.setACL().withACL(List.of(new ACL(READ, ANYONE))).forPath("/canopy/config"))
                .isInstanceOf(KeeperException.NoAuthException.class);

        JobSecret other = JobSecret.generate();
        assertThat(Await.result(store(other).load("g"), WAIT)).as("another secret's job does not use it").isEmpty();
        assertThat(Await.failure(store(other).save("g", DOCUMENT), WAIT)).hasMessageContaining("belongs to other credentials");
        // Another deployment calibrates a grid of its own beside it.
        Await.result(store(other).save("h", DOCUMENT), WAIT);
        assertThat(Await.result(store(other).load("h"), WAIT)).isPresent();
    }

    @Test
    void whatAProcessWithoutTheSecretPlantsIsNotUsed() throws Exception {
        SegmentationStore planted = new SegmentationStore(vertx, foreigner, JobSecret.generate());
        Await.result(planted.save("forged", DOCUMENT), WAIT);
        foreigner.create().creatingParentsIfNeeded().forPath(SegmentationStore.path("unsealed"),
                DOCUMENT.encode().getBytes(StandardCharsets.UTF_8));

        SegmentationStore ours = store(secret);
        assertThat(Await.result(ours.load("forged"), WAIT)).as("sealed with another key").isEmpty();
        assertThat(Await.result(ours.load("unsealed"), WAIT)).as("an old, unsealed document").isEmpty();
        assertThat(Await.result(ours.load("never-calibrated"), WAIT)).isEmpty();
    }

    @Test
    void aTamperedBodyFailsItsMac() {
        SegmentationStore ours = store(secret);
        byte[] sealed = ours.seal(SegmentationStore.path("g"), DOCUMENT.encode());
        JsonObject tampered = new JsonObject(new String(sealed, StandardCharsets.UTF_8));
        tampered.put("body", tampered.getString("body").replace("4096", "4097"));

        assertThat(ours.open(SegmentationStore.path("g"), sealed)).contains(DOCUMENT.encode());
        assertThat(ours.open(SegmentationStore.path("g"), tampered.encode().getBytes(StandardCharsets.UTF_8))).isEmpty();
        assertThat(ours.open(SegmentationStore.path("other"), sealed)).as("moved to another grid").isEmpty();
    }
}
