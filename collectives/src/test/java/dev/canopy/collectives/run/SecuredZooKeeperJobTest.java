package dev.canopy.collectives.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.internal.calibration.SegmentationStore;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.TransportStack;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.core.testing.Await;
import dev.canopy.core.testing.TestCertificates;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job against a ZooKeeper secured both ways: its only client port speaks TLS, and it enforces {@code digest}
 * authentication ({@code zookeeper.enforce.auth.enabled=true}, {@code zookeeper.enforce.auth.schemes=digest}).
 * Three sessions join through {@link Canopy#joinAsync} (TLS, the job's digest credentials, the calibration read
 * through the node's own client), run a barrier and an allreduce; a client without credentials gets nothing.
 */
@Timeout(120)
class SecuredZooKeeperJobTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String LEVEL_FILE = """
            +
            ( &(type = grid) (name = "secured-three") (default_rtt_ms = 10) )
            ( &(type = subjob) (label = "a") (count = 1) (wan_group = "a") (site = "a") )
            ( &(type = subjob) (label = "b") (count = 1) (wan_group = "b") (site = "b") )
            ( &(type = subjob) (label = "c") (count = 1) (wan_group = "c") (site = "c") )
            """;

    @TempDir
    Path directory;

    @Test
    void threeProcessesJoinOverTlsAgainstAServerEnforcingDigestAuthenticationAndRunAnAllreduce() {
        ZooKeeperTls tls = ZooKeeperTls.fromDirectory(TestCertificates.writePemDirectory(directory,
                TestCertificates.authority("canopy-test-ca", Duration.ofDays(2))));
        GridModel grid = GridConfigs.parse(LEVEL_FILE, "secured-three.rsl").orElseThrow();
        JobSecret secret = JobSecret.generate();
        Vertx vertx = Vertx.vertx();
        try (EmbeddedZooKeeper zooKeeper = enforcingDigest(tls)) {
            ZooKeeperSession calibrator = Await.result(ZooKeeperSession.open(vertx, zooKeeper.connectString(),
                    Duration.ofSeconds(4), WAIT, Optional.of(ZooKeeperCredentials.of(secret)), Optional.of(tls)), WAIT);
            SegmentationStore store = new SegmentationStore(vertx, calibrator.client(), secret);
            Await.result(store.save(grid.name(), new JsonObject().put("thresholds", new JsonObject().put("S", 65536))), WAIT);
            Await.result(calibrator.close(), WAIT);

            List<CanopySession> sessions = join(grid, zooKeeper.connectString(), secret, tls);
            try {
                List<Future<Void>> barriers = sessions.stream().map(s -> s.collectives().barrier()).toList();
                barriers.forEach(barrier -> Await.result(barrier, WAIT));
                List<Future<int[]>> sums = sessions.stream().map(s -> s.collectives().typed(ArrayType.INTS)
                        .allreduce(new int[] {s.rank() + 1, 10}, BuiltInOp.SUM)).toList();
                for (Future<int[]> sum : sums) {
                    assertThat(Await.result(sum, WAIT)).containsExactly(6, 30);
                }
            } finally {
                sessions.forEach(CanopySession::leave);
            }

            try (CuratorFramework anonymous = ZooKeeperSession.builder(zooKeeper.connectString(), Duration.ofSeconds(4),
                    Duration.ofSeconds(4), Optional.empty(), Optional.of(tls)).retryPolicy(new RetryOneTime(100)).build()) {
                anonymous.start();
                assertThatThrownBy(() -> anonymous.checkExists().forPath(SegmentationStore.path(grid.name())))
                        .as("the server closes the session of a client over TLS that did not authenticate")
                        .isInstanceOf(KeeperException.class);
            }
        } finally {
            Await.result(vertx.close(), WAIT);
        }
    }

    /**
     * ZooKeeper reads {@code zookeeper.enforce.auth.*} only from system properties, once, when a server is
     * constructed (its {@code AuthenticationHelper}); they are set for that moment only.
     */
    private static EmbeddedZooKeeper enforcingDigest(ZooKeeperTls tls) {
        System.setProperty("zookeeper.enforce.auth.enabled", "true");
        System.setProperty("zookeeper.enforce.auth.schemes", "digest");
        try {
            return EmbeddedZooKeeper.start(Optional.of(tls));
        } finally {
            System.clearProperty("zookeeper.enforce.auth.enabled");
            System.clearProperty("zookeeper.enforce.auth.schemes");
        }
    }

    private static List<CanopySession> join(GridModel grid, String connectString, JobSecret secret, ZooKeeperTls tls) {
        List<Future<CanopySession>> joining = new ArrayList<>();
        for (int process = 0; process < grid.processCount(); process++) {
            JoinOptions options = new JoinOptions(JobId.of("secured"), process, grid, connectString, TransportStack.none(),
                    secret).withZooKeeperTls(tls);
            joining.add(Canopy.joinAsync(Vertx.vertx(), options));
        }
        List<CanopySession> sessions = new ArrayList<>();
        for (Future<CanopySession> session : joining) {
            sessions.add(Await.result(session, WAIT));
        }
        sessions.sort((x, y) -> Integer.compare(x.rank(), y.rank()));
        return sessions;
    }
}
