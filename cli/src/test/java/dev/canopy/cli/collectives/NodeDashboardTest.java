package dev.canopy.cli.collectives;

import static dev.canopy.cli.dashboard.DashboardClient.get;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.collectives.NodeProcesses.NodeProcess;
import dev.canopy.cli.testing.Poll;
import dev.canopy.core.security.JobSecret;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code canopy node --dashboard}: three node JVMs, the first serving the dashboard; a node killed with SIGKILL is
 * shown {@code failed} (the serving node's failure detector judged it), with a {@code failure} event naming it.
 */
@Tag("multiprocess")
@Timeout(180)
class NodeDashboardTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final Pattern URL = Pattern.compile("(?m)^dashboard: (http://127\\.0\\.0\\.1:\\d+/)$");
    private static final String GRID = """
            +( &(type = grid) (name = "node-dash") )
             ( &(type = subjob) (label = "alpha") (count = 2) )
             ( &(type = subjob) (label = "beta") (count = 1) )
             ( &(type = link) (between = "alpha" "beta") (rtt_ms = 10) )
            """;

    @TempDir
    Path directory;

    @Test
    void aKilledNodeIsShownFailedWithItsEvidence() throws Exception {
        Path config = Files.writeString(directory.resolve("node-dash.rsl"), GRID);
        Path secretFile = directory.resolve("job.key");
        JobSecret.generate().writeTo(secretFile);
        Path done = directory.resolve("done");
        String job = "node-dash-" + System.nanoTime();
        List<NodeProcess> nodes = new ArrayList<>();
        try (TestingServer zooKeeper = new TestingServer(true)) {
            for (int process = 0; process < 3; process++) {
                List<String> arguments = new ArrayList<>(List.of("--config", config.toString(), "--process",
                        Integer.toString(process), "--zk", zooKeeper.getConnectString(), "--job", job, "--class",
                        IdleUntilFileProgram.class.getName(), "--secret-file", secretFile.toString()));
                if (process == 0) {
                    arguments.addAll(List.of("--dashboard", "0"));
                }
                nodes.add(NodeProcesses.start(directory, Map.of(IdleUntilFileProgram.ENV_DONE_FILE, done.toString()),
                        arguments));
            }
            for (NodeProcess node : nodes) {
                node.awaitOutput("idle", DEADLINE);
            }
            Matcher url = URL.matcher(nodes.get(0).output());
            assertThat(url.find()).as(nodes.get(0).output()).isTrue();
            String api = url.group(1) + "api/";
            Poll.until(DEADLINE, () -> state(get(api + "grid"), "p2").equals(Optional.of("joined")),
                    () -> "p2 joined: " + get(api + "grid").encode());

            nodes.get(2).process().destroyForcibly(); // SIGKILL: no goodbye
            nodes.get(2).exitStatus(DEADLINE);

            Poll.until(DEADLINE, () -> state(get(api + "grid"), "p2").equals(Optional.of("failed")),
                    () -> "p2 failed: " + get(api + "grid").encode() + "\n" + nodes.get(0).output());
            assertThat(state(get(api + "grid"), "p1")).contains("joined");
            List<JsonObject> failures = get(api + "events").getJsonArray("events").stream().map(JsonObject.class::cast)
                    .filter(event -> event.getString("kind").equals("failure")).toList();
            assertThat(failures).hasSize(1);
            assertThat(failures.get(0).getString("member")).isEqualTo("p2");
            assertThat(failures.get(0).getString("site")).isEqualTo("beta");
            assertThat(failures.get(0).getString("detail")).contains("p2").contains("seen by p0");

            Files.writeString(done, "done");
            assertThat(nodes.get(0).exitStatus(DEADLINE)).as(nodes.get(0).output()).isZero();
            assertThat(nodes.get(1).exitStatus(DEADLINE)).as(nodes.get(1).output()).isZero();
        } finally {
            nodes.forEach(node -> node.process().destroyForcibly());
        }
    }

    private static Optional<String> state(JsonObject grid, String member) {
        return grid.getJsonArray("members").stream().map(JsonObject.class::cast)
                .filter(json -> json.getString("id").equals(member)).map(json -> json.getString("state")).findFirst();
    }
}
