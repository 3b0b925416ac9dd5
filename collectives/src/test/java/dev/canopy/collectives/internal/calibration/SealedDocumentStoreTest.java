package dev.canopy.collectives.internal.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.internal.segmentation.SegmentationThresholds;
import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.internal.membership.testing.ZooKeeperServers;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.tree.LogGpParameters;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every sealed calibration document in ZooKeeper guarantees, for each kind ({@link LogGpStore},
 * {@link SegmentationStore}): the secret's holders read what they wrote; a process without the secret can neither
 * read, change nor delete it, and what it plants (another key's seal, an unsealed document, a tampered or moved
 * body, another kind's MAC) is not used; a document that does not decode is not stored.
 */
@Timeout(60)
class SealedDocumentStoreTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Id ANYONE = new Id("world", "anyone");
    private static final int READ = 1;
    private static final int ALL = 31;

    /** One kind of document: its store, its path, a document and what it holds, and a document it refuses. */
    record Kind(String name, Opener opener, Function<String, String> path, JsonObject document, Object holds,
            JsonObject bad) {

        @Override
        public String toString() {
            return name;
        }
    }

    @FunctionalInterface
    interface Opener {
        SealedDocumentStore<?> open(Vertx vertx, CuratorFramework client, JobSecret secret);
    }

    static Stream<Kind> kinds() {
        LogGpParameters parameters = new LogGpParameters(0.031, 0.012, 2.5e-6, Map.of(Level.HEAVY_WAN, 20.4,
                Level.HOST, 0.08));
        JsonObject thresholds = new JsonObject().put("S", 4096).put("M1", 1024).put("M2", 8192);
        return Stream.of(
                new Kind("loggp", LogGpStore::new, LogGpStore::path,
                        new JsonObject().put("loggp", LogGpStore.toJson(parameters)).put("measurements", new JsonObject()),
                        parameters, new JsonObject().put("loggp", LogGpStore.toJson(parameters).put("overhead_ms", -1))),
                new Kind("segmentation", SegmentationStore::new, SegmentationStore::path,
                        new JsonObject().put("grid", "g").put("thresholds", thresholds),
                        SegmentationThresholds.fromJson(thresholds),
                        new JsonObject().put("grid", "g").put("thresholds", new JsonObject().put("S", -4))));
    }

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

    /** A store of {@code kind} on a client with {@code of}'s ZooKeeper credentials. */
    private SealedDocumentStore<?> store(Kind kind, JobSecret of) {
        ZooKeeperSession session = Await.result(ZooKeeperSession.open(vertx, zooKeeper.getConnectString(),
                Duration.ofSeconds(4), WAIT, Optional.of(ZooKeeperCredentials.of(of))), WAIT);
        sessions.add(session);
        return kind.opener().open(vertx, session.client(), of);
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void theSecretsHoldersReadWhatTheyWroteAndNobodyElseCanReadChangeOrDeleteIt(Kind kind) {
        Await.result(store(kind, secret).save("g", kind.document()), WAIT);

        assertThat(Await.result(store(kind, secret).load("g"), WAIT)).isEqualTo(Optional.of(kind.holds()));
        String path = kind.path().apply("g");
        assertThat(path).isEqualTo("/canopy/config/g/" + kind.name());
        assertThatThrownBy(() -> foreigner.getData().forPath(path)).isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> foreigner.setData().forPath(path, "{}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> foreigner.delete().forPath(path)).isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> foreigner.delete().deletingChildrenIfNeeded().forPath("/canopy/config/g"))
                .isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> foreigner.setACL().withACL(List.of(new ACL(ALL, ANYONE))).forPath(path))
                .isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> foreigner.setACL().withACL(List.of(new ACL(READ, ANYONE))).forPath("/canopy/config"))
                .isInstanceOf(KeeperException.NoAuthException.class);
        assertThat(Await.result(store(kind, secret).load("never-calibrated"), WAIT)).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void anotherSecretsJobNeitherUsesNorOverwritesItButKeepsAGridOfItsOwnBeside(Kind kind) {
        Await.result(store(kind, secret).save("g", kind.document()), WAIT);

        JobSecret other = JobSecret.generate();
        assertThat(Await.result(store(kind, other).load("g"), WAIT)).as("another secret's job does not use it").isEmpty();
        assertThat(Await.failure(store(kind, other).save("g", kind.document()), WAIT))
                .hasMessageContaining("belongs to other credentials");
        Await.result(store(kind, other).save("h", kind.document()), WAIT);
        assertThat(Await.result(store(kind, other).load("h"), WAIT)).isEqualTo(Optional.of(kind.holds()));
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void whatAProcessWithoutTheSecretPlantsIsNotUsed(Kind kind) throws Exception {
        Await.result(kind.opener().open(vertx, foreigner, JobSecret.generate()).save("forged", kind.document()), WAIT);
        foreigner.create().creatingParentsIfNeeded().forPath(kind.path().apply("unsealed"),
                kind.document().encode().getBytes(StandardCharsets.UTF_8));

        SealedDocumentStore<?> ours = store(kind, secret);
        assertThat(Await.result(ours.load("forged"), WAIT)).as("sealed with another key").isEmpty();
        assertThat(Await.result(ours.load("unsealed"), WAIT)).as("an old, unsealed document").isEmpty();
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void aTamperedOrMovedBodyFailsItsMac(Kind kind) {
        SealedDocumentStore<?> ours = store(kind, secret);
        String path = kind.path().apply("g");
        byte[] sealed = ours.seal(path, kind.document().encode());
        JsonObject tampered = new JsonObject(new String(sealed, StandardCharsets.UTF_8));
        tampered.put("body", tampered.getString("body").replace(":", ": "));

        assertThat(ours.open(path, sealed)).contains(kind.document().encode());
        assertThat(ours.open(path, tampered.encode().getBytes(StandardCharsets.UTF_8))).isEmpty();
        assertThat(ours.open(kind.path().apply("other"), sealed)).as("moved to another grid").isEmpty();
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void anotherKindsMacDoesNotFit(Kind kind) throws Exception {
        Kind other = kinds().filter(candidate -> !candidate.name().equals(kind.name())).findFirst().orElseThrow();
        SealedDocumentStore<?> ours = store(kind, secret);
        String path = kind.path().apply("g");
        byte[] sealedAsOther = other.opener().open(vertx, sessions.get(0).client(), secret).seal(path,
                kind.document().encode());
        sessions.get(0).client().create().creatingParentsIfNeeded().forPath(path, sealedAsOther);

        assertThat(Await.result(ours.load("g"), WAIT)).as("each kind of document has its own key").isEmpty();
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void aDocumentThatDoesNotDecodeIsNotStored(Kind kind) {
        SealedDocumentStore<?> ours = store(kind, secret);

        assertThat(Await.failure(ours.save("g", kind.bad()), WAIT)).isInstanceOf(MalformedZnodeException.class)
                .hasMessageContaining(kind.path().apply("g"));
        assertThat(Await.result(ours.load("g"), WAIT)).as("nothing was written").isEmpty();
    }
}
