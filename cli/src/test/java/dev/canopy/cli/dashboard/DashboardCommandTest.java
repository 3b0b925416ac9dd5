package dev.canopy.cli.dashboard;

import static dev.canopy.cli.dashboard.DashboardClient.awaitUrl;
import static dev.canopy.cli.dashboard.DashboardClient.get;
import static dev.canopy.cli.dashboard.DashboardClient.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyCommand;
import dev.canopy.cli.testing.Poll;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code canopy dashboard} against a running job: with the job's secret it shows the members; without, why not. */
@Timeout(120)
class DashboardCommandTest {

    private static final String TWO_SITES = """
            +( &(type = grid) (name = "dash-pair") )
             ( &(type = subjob) (label = "alpha") (count = 2) )
             ( &(type = subjob) (label = "beta") (count = 1) )
             ( &(type = link) (between = "alpha" "beta") (rtt_ms = 30) )
            """;

    @TempDir
    Path dir;

    @Test
    void servesARunningJobReadFromZooKeeperWithItsSecret() throws Exception {
        GridModel model = GridConfigs.parse(TWO_SITES, "dash-pair.rsl").orElseThrow();
        Path config = Files.writeString(dir.resolve("pair.rsl"), TWO_SITES);
        try (EmulatedGrid grid = EmulatedGrid.start(model, "cli-dash", 3)) {
            Path secret = dir.resolve("job.key");
            grid.secret().writeTo(secret);
            StringWriter out = new StringWriter();
            CompletableFuture<Integer> exit = run(out, "dashboard", "--zk", grid.zooKeeperConnectString(), "--job", "cli-dash",
                    "--secret-file", secret.toString(), "--config", config.toString(), "--duration", "8");
            String url = awaitUrl(out, exit);
            Poll.until(Duration.ofSeconds(30), () -> get(url + "api/grid").getJsonArray("members").size() == 3, () -> "three members");
            JsonObject body = get(url + "api/grid");
            assertThat(body.getString("job")).isEqualTo("cli-dash");
            assertThat(body.getJsonArray("members").stream().map(JsonObject.class::cast).map(m -> m.getString("state")))
                    .containsOnly("joined");
            JsonObject links = get(url + "api/links");
            assertThat(links.getJsonArray("pairs").getJsonObject(0).getDouble("configured_rtt_ms")).isEqualTo(30.0);
            // With the secret it reads the timings members publish; these members ran no collective yet.
            JsonObject collectives = get(url + "api/collectives");
            assertThat(collectives.getBoolean("recorded")).isTrue();
            assertThat(collectives.getJsonArray("communicators")).isEmpty();
            assertThat(exit.get(30, TimeUnit.SECONDS)).isZero();
        }
    }

    @Test
    void withoutTheSecretItSaysTheJobIsNotReadable() throws Exception {
        GridModel model = GridConfigs.parse(TWO_SITES, "dash-pair.rsl").orElseThrow();
        try (EmulatedGrid grid = EmulatedGrid.start(model, "cli-dash-secured", 4)) {
            StringWriter out = new StringWriter();
            CompletableFuture<Integer> exit = run(out, "dashboard", "--zk", grid.zooKeeperConnectString(), "--job",
                    "cli-dash-secured", "--duration", "5");
            String url = awaitUrl(out, exit);
            Poll.until(Duration.ofSeconds(30), () -> get(url + "api/grid").getString("source_status").contains("failed"),
                    () -> "an error status, got " + get(url + "api/grid").getString("source_status"));
            assertThat(get(url + "api/grid").getString("source_status")).contains("NoAuth");
            assertThat(get(url + "api/grid").getJsonArray("members")).isEmpty();
            assertThat(exit.get(30, TimeUnit.SECONDS)).isZero();
        }
    }

    @Test
    void badArgumentsExit2WithTheFix() {
        StringWriter err = new StringWriter();
        CommandLine command = new CommandLine(new CanopyCommand()).setOut(new PrintWriter(new StringWriter(), true))
                .setErr(new PrintWriter(err, true));
        assertThat(command.execute("dashboard", "--zk", "127.0.0.1:1", "--job", "j", "--port", "70000")).isEqualTo(2);
        assertThat(err.toString()).contains("dashboard port 70000 is out of range");
        assertThat(command.execute("dashboard", "--zk", "127.0.0.1:1", "--job", "no/slash")).isEqualTo(2);
        assertThat(err.toString()).contains("job name 'no/slash'");
        assertThat(command.execute("dashboard", "--zk", "127.0.0.1:1", "--job", "j", "--duration", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--duration must be positive");
    }
}
