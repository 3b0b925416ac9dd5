package dev.canopy.cli.dashboard;

import static dev.canopy.cli.dashboard.DashboardClient.awaitUrl;
import static dev.canopy.cli.dashboard.DashboardClient.get;
import static dev.canopy.cli.dashboard.DashboardClient.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.testing.Poll;
import dev.canopy.gridconfig.GridConfigs;
import io.vertx.core.json.JsonObject;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code canopy launch --dashboard} shows the ranks whose processes end badly as {@code failed}, from their exit
 * statuses: four JVMs on the bundled two-site grid; rank {@value FailingRanksProgram#THROWING_RANK} throws (exit
 * status 1), the test kills rank {@value #KILLED_RANK} with SIGKILL (137), and the others finish cleanly.
 */
@Tag("multiprocess")
@Timeout(240)
class LaunchFailedRankTest {

    private static final int KILLED_RANK = 2;
    private static final String JOB = "launch-failed-rank";

    @TempDir
    Path directory;

    @Test
    void aRankKilledBySigkillAndOneThatFailedAreShownFailedWithTheirExitStatuses() throws Exception {
        Path config = Files.writeString(directory.resolve("two-site.rsl"), GridConfigs.bundledText("two-site.rsl"));
        StringWriter out = new StringWriter();
        CompletableFuture<Integer> exit = run(out, "launch", "--config", config.toString(), "--class",
                FailingRanksProgram.class.getName(), "--job", JOB, "--dashboard", "0", "--timeout", "200");
        try {
            String url = awaitUrl(out, exit);
            Poll.until(Duration.ofSeconds(150), () -> count(out.toString(), "past the barrier") == 4 || exit.isDone(),
                    () -> "every rank past its barrier; output:\n" + out);
            String killedId = member(url, KILLED_RANK).getString("id");
            ProcessHandle killed = ProcessHandle.current().descendants()
                    .filter(process -> process.info().commandLine().map(line -> line.contains("-Dcanopy.job=" + JOB)
                            && line.contains("-Dcanopy.process=" + killedId.substring(1) + " ")).orElse(false))
                    .findFirst().orElseThrow(() -> new AssertionError("no process of " + killedId + " found"));
            assertThat(killed.destroyForcibly()).isTrue(); // SIGKILL: no goodbye, no shutdown hook

            Poll.until(Duration.ofSeconds(60), () -> failure(url, KILLED_RANK).isPresent()
                            && failure(url, FailingRanksProgram.THROWING_RANK).isPresent(),
                    () -> "both failures on /api/events: " + get(url + "api/events").encodePrettily() + "; output:\n" + out);
            JsonObject sigkill = failure(url, KILLED_RANK).orElseThrow();
            assertThat(sigkill.getString("member")).isEqualTo(killedId);
            assertThat(sigkill.getInteger("exit_status")).isEqualTo(137);
            assertThat(sigkill.getInteger("signal")).isEqualTo(9);
            assertThat(sigkill.getString("detail")).contains("failed: its process ended with exit status 137: killed by"
                    + " signal 9 (SIGKILL");
            JsonObject thrown = failure(url, FailingRanksProgram.THROWING_RANK).orElseThrow();
            assertThat(thrown.getInteger("exit_status")).isEqualTo(1);
            assertThat(thrown.containsKey("signal")).isFalse();
            assertThat(thrown.getString("detail")).contains("exit status 1: the program failed");

            assertThat(member(url, KILLED_RANK).getString("state")).isEqualTo("failed");
            assertThat(member(url, FailingRanksProgram.THROWING_RANK).getString("state")).isEqualTo("failed");
            for (int rank : List.of(0, 3)) {
                assertThat(member(url, rank).getString("state")).as("rank " + rank).isEqualTo("joined");
            }
        } finally {
            Files.writeString(directory.resolve(FailingRanksProgram.DONE), "seen");
        }
        // The launch ends with the worst status, the SIGKILL's; the ranks that finished never show failed.
        assertThat(exit.get(120, TimeUnit.SECONDS)).as(out.toString()).isEqualTo(137);
    }

    private static long count(String text, String part) {
        return text.lines().filter(line -> line.contains(part)).count();
    }

    private static JsonObject member(String url, int rank) {
        return get(url + "api/grid").getJsonArray("members").stream().map(JsonObject.class::cast)
                .filter(member -> member.getInteger("rank") == rank).findFirst()
                .orElseThrow(() -> new AssertionError("no rank " + rank + " on " + get(url + "api/grid").encode()));
    }

    private static Optional<JsonObject> failure(String url, int rank) {
        return get(url + "api/events").getJsonArray("events").stream().map(JsonObject.class::cast)
                .filter(event -> event.getString("kind").equals("failure") && event.getInteger("rank", -1) == rank)
                .findFirst();
    }
}
