package dev.canopy.collectives.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.membership.MalformedZnodeException;
import dev.canopy.core.membership.ZooKeeperCredentials;
import dev.canopy.core.membership.ZooKeeperSession;
import dev.canopy.core.membership.testing.ZooKeeperServers;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.Level;
import dev.canopy.topology.tree.LogGpParameters;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The LogGP parameters in ZooKeeper: sealed under the deployment's secret, checked before use. */
@Timeout(60)
class LogGpStoreTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final LogGpParameters MEASURED = new LogGpParameters(0.031, 0.012, 2.5e-6,
            Map.of(Level.HEAVY_WAN, 20.4, Level.HOST, 0.08));

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

    private LogGpStore store(JobSecret of) {
        ZooKeeperSession session = Await.result(ZooKeeperSession.open(vertx, zooKeeper.getConnectString(),
                Duration.ofSeconds(4), WAIT, Optional.of(ZooKeeperCredentials.of(of))), WAIT);
        sessions.add(session);
        return new LogGpStore(vertx, session.client(), of);
    }

    private static JsonObject document(LogGpParameters parameters) {
        return new JsonObject().put("loggp", LogGpStore.toJson(parameters)).put("measurements", new JsonObject());
    }

    @Test
    void theSecretsHoldersReadTheParametersItWroteAndNobodyElseCanChangeThem() throws Exception {
        Await.result(store(secret).save("g", document(MEASURED)), WAIT);

        assertThat(Await.result(store(secret).load("g"), WAIT)).contains(MEASURED);
        String path = LogGpStore.path("g");
        assertThat(path).isEqualTo("/canopy/config/g/loggp");
        assertThatThrownBy(() -> foreigner.getData().forPath(path)).isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> foreigner.setData().forPath(path, "{}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> foreigner.delete().forPath(path)).isInstanceOf(KeeperException.NoAuthException.class);
        assertThat(Await.result(store(JobSecret.generate()).load("g"), WAIT)).as("another secret's job").isEmpty();
        assertThat(Await.result(store(secret).load("never-calibrated"), WAIT)).isEmpty();
    }

    @Test
    void whatAProcessWithoutTheSecretPlantsIsNotUsed() throws Exception {
        Await.result(new LogGpStore(vertx, foreigner, JobSecret.generate()).save("forged", document(MEASURED)), WAIT);
        foreigner.create().creatingParentsIfNeeded().forPath(LogGpStore.path("unsealed"),
                document(MEASURED).encode().getBytes(StandardCharsets.UTF_8));

        LogGpStore ours = store(secret);
        assertThat(Await.result(ours.load("forged"), WAIT)).as("sealed with another key").isEmpty();
        assertThat(Await.result(ours.load("unsealed"), WAIT)).as("not sealed at all").isEmpty();
    }

    @Test
    void aSegmentationCalibrationsMacDoesNotFitTheLogGpZnode() throws Exception {
        LogGpStore ours = store(secret);
        SegmentationStore thresholds = new SegmentationStore(vertx, sessions.get(0).client(), secret);
        byte[] sealedAsThresholds = thresholds.seal(LogGpStore.path("g"), document(MEASURED).encode());
        sessions.get(0).client().create().creatingParentsIfNeeded().forPath(LogGpStore.path("g"), sealedAsThresholds);

        assertThat(Await.result(ours.load("g"), WAIT)).as("each kind of document has its own key").isEmpty();
    }

    @Test
    void badValuesAreRefusedNamingTheZnode() {
        String path = LogGpStore.path("g");
        JsonObject negative = document(MEASURED);
        negative.getJsonObject("loggp").put("overhead_ms", -1);
        JsonObject noLevel = document(MEASURED);
        noLevel.getJsonObject("loggp").getJsonObject("latency_ms").put("continent", 3);
        JsonObject missing = document(MEASURED);
        missing.getJsonObject("loggp").remove("per_byte_ms");
        JsonObject absurd = document(MEASURED);
        absurd.getJsonObject("loggp").put("per_byte_ms", 5);

        for (JsonObject bad : List.of(negative, noLevel, missing, absurd, new JsonObject())) {
            assertThatThrownBy(() -> LogGpStore.decode(bad.encode().getBytes(StandardCharsets.UTF_8), path))
                    .as(bad.encode()).isInstanceOf(MalformedZnodeException.class).hasMessageContaining(path);
        }
        assertThat(LogGpStore.decode(document(MEASURED).encode().getBytes(StandardCharsets.UTF_8), path)).isEqualTo(MEASURED);
        assertThat(Await.failure(store(secret).save("g", negative), WAIT)).isInstanceOf(MalformedZnodeException.class);
    }
}
