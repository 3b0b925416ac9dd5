package dev.canopy.cli.collectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.cli.CanopyCommand;
import dev.canopy.cli.CanopyMain;
import dev.canopy.collectives.internal.calibration.LogGpStore;
import dev.canopy.collectives.internal.calibration.SegmentationStore;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code canopy calibrate} on the two-site grid: curves printed, thresholds stored in ZooKeeper. */
class CalibrateCommandTest {

    @TempDir
    Path directory;

    @Test
    void measuresBothCurvesAndStoresTheResultWithTheGridsConfiguration() throws Exception {
        Path config = directory.resolve("two-site.rsl");
        Files.writeString(config, GridConfigs.bundledText("two-site.rsl"));
        try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start()) {
            StringWriter out = new StringWriter();
            JobSecret secret = JobSecret.generate();
            Path secretFile = directory.resolve("job.key");
            secret.writeTo(secretFile);
            int status = new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out)).execute("calibrate",
                    "--config", config.toString(), "--zk", zooKeeper.connectString(), "--secret-file",
                    secretFile.toString(), "--sizes", "256,1024,4096", "--repetitions", "3", "--json");
            assertThat(status).isZero();
            JsonObject report = new JsonObject(out.toString());
            assertThat(report.getJsonObject("before").getJsonArray("scatter")).hasSize(3);
            assertThat(report.getJsonObject("before").getJsonArray("gather")).hasSize(3);
            String path = SegmentationStore.path("two-site");
            try (CuratorFramework holder = client(zooKeeper, Optional.of(ZooKeeperCredentials.of(secret)));
                    CuratorFramework foreigner = client(zooKeeper, Optional.empty())) {
                JsonObject sealed = new JsonObject(new String(holder.getData().forPath(path), StandardCharsets.UTF_8));
                JsonObject document = new JsonObject(sealed.getString("body"));
                assertThat(document.getJsonObject("thresholds")).isEqualTo(report.getJsonObject("thresholds"));
                assertThat(sealed.getString("mac")).hasSize(64);

                assertThatThrownBy(() -> foreigner.getData().forPath(path)).isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> foreigner.setData().forPath(path, "{}".getBytes(StandardCharsets.UTF_8)))
                        .isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> foreigner.delete().forPath(path)).isInstanceOf(KeeperException.NoAuthException.class);

                String loggp = LogGpStore.path("two-site");
                JsonObject sealedLogGp = new JsonObject(new String(holder.getData().forPath(loggp), StandardCharsets.UTF_8));
                assertThat(new JsonObject(sealedLogGp.getString("body")).getJsonObject("loggp"))
                        .isEqualTo(report.getJsonObject("loggp"));
                assertThat(report.getJsonObject("loggp").getJsonObject("latency_ms").getDouble("heavy_wan")).isPositive();
                assertThatThrownBy(() -> foreigner.getData().forPath(loggp)).isInstanceOf(KeeperException.NoAuthException.class);
            }
        }
    }

    private static CuratorFramework client(EmbeddedZooKeeper zooKeeper, Optional<ZooKeeperCredentials> credentials) {
        CuratorFramework client = ZooKeeperSession.builder(zooKeeper.connectString(), Duration.ofSeconds(4),
                Duration.ofSeconds(10), credentials).retryPolicy(new RetryOneTime(100)).build();
        client.start();
        return client;
    }

    @Test
    void storingNeedsTheSecretOfTheJobsThatWillUseIt() throws Exception {
        Path config = directory.resolve("two-site.rsl");
        Files.writeString(config, GridConfigs.bundledText("two-site.rsl"));
        StringWriter err = new StringWriter();
        int status = new CommandLine(new CanopyCommand()).setErr(new PrintWriter(err)).execute("calibrate", "--config",
                config.toString(), "--zk", "127.0.0.1:1", "--sizes", "256,1024,4096");
        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("--zk needs --secret-file FILE");
    }

    @Test
    void tooFewSizesAreBadInput() throws Exception {
        Path config = directory.resolve("two-site.rsl");
        Files.writeString(config, GridConfigs.bundledText("two-site.rsl"));
        StringWriter err = new StringWriter();
        int status = new CommandLine(new CanopyCommand()).setErr(new PrintWriter(err))
                .execute("calibrate", "--config", config.toString(), "--sizes", "1024");
        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("at least 3 sizes");
    }

    @Test
    void anUnreachableZooKeeperFailsFirstInOneLineSayingHowLongItWaited() throws Exception {
        Path config = directory.resolve("two-site.rsl");
        Files.writeString(config, GridConfigs.bundledText("two-site.rsl"));
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        Path secretFile = directory.resolve("job.key");
        JobSecret.generate().writeTo(secretFile);

        int status = CanopyMain.run(new PrintWriter(out, true), new PrintWriter(err, true), "calibrate", "--config",
                config.toString(), "--zk", "127.0.0.1:" + closedPort, "--secret-file", secretFile.toString(),
                "--zk-timeout", "1", "--sizes", "256,1024,4096", "--repetitions", "2");

        assertThat(status).isEqualTo(1);
        assertThat(err.toString().lines()).singleElement().asString()
                .startsWith("canopy calibrate: no ZooKeeper server answered at 127.0.0.1:" + closedPort)
                .matches(".*; waited [1-9]\\.\\d s for ZooKeeper, measured nothing \\(-v shows the stack trace\\)");
        assertThat(out.toString()).as("nothing measured, nothing printed").isEmpty();
    }
}
