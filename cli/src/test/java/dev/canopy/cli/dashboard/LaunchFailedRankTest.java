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
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
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
 * statuses: four JVMs; rank {@value FailingRanksProgram#THROWING_RANK} throws (exit status 1), rank
 * {@value FailingRanksProgram#HALTING_RANK} halts with status 0 without leaving, the test kills rank
 * {@value #KILLED_RANK} with SIGKILL (137), and rank 0 finishes cleanly. Once on this machine, and once through the
 * launch agents of {@code --hostfile}, whose exit statuses come back over their sessions (a local shell stands in for
 * ssh here; {@code SshLaunchTest} runs real sshds in network namespaces).
 */
@Tag("multiprocess")
@Timeout(300)
class LaunchFailedRankTest {

    private static final int KILLED_RANK = 2;

    @TempDir
    Path directory;

    @Test
    void onThisMachineRanksKilledFailedOrGoneWithoutLeavingAreShownFailedWithTheirExitStatuses() throws Exception {
        Path config = Files.writeString(directory.resolve("two-site.rsl"), GridConfigs.bundledText("two-site.rsl"));
        killOneAndSeeBothFailed("launch-failed-rank-" + ProcessHandle.current().pid(), List.of("--config", config.toString()));
    }

    @Test
    void throughTheLaunchAgentsTheRemoteExitStatusesAreShownToo() throws Exception {
        Path hosts = Files.writeString(directory.resolve("hosts"), "127.0.0.1 slots=2\n127.0.0.2 slots=2\n");
        // Runs the remote command (ssh's last argument) here, as sshd would on the host (the argument before it).
        Path ssh = Files.writeString(directory.resolve("local-ssh"), """
                #!/bin/sh
                host=; last=
                for arg; do host=$last; last=$arg; done
                SSH_CONNECTION="127.0.0.1 40000 $host 22" exec sh -c "$last"
                """);
        Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwx------"));
        killOneAndSeeBothFailed("launch-failed-agent-" + ProcessHandle.current().pid(), List.of("--hostfile",
                hosts.toString(), "--site-by", "subnet:/32", "--ssh", ssh.toString()));
    }

    private void killOneAndSeeBothFailed(String job, List<String> where) throws Exception {
        List<String> arguments = new ArrayList<>(List.of("launch", "--class", FailingRanksProgram.class.getName(), "--job",
                job, "--dashboard", "0", "--timeout", "240"));
        arguments.addAll(where);
        StringWriter out = new StringWriter();
        CompletableFuture<Integer> exit = run(out, arguments.toArray(String[]::new));
        Path done = FailingRanksProgram.doneFile(job);
        try {
            String url = awaitUrl(out, exit);
            Poll.until(Duration.ofSeconds(180), () -> count(out.toString(), "past the barrier") == 4 || exit.isDone(),
                    () -> "every rank past its barrier; output:\n" + out);
            assertThat(exit.isDone()).as("the launch ended early; output:\n%s", out).isFalse();
            String killedId = member(url, KILLED_RANK).getString("id");
            ProcessHandle killed = ProcessHandle.current().descendants()
                    .filter(process -> process.info().commandLine().map(line -> line.contains("-Dcanopy.job=" + job + " ")
                            && line.contains("-Dcanopy.process=" + killedId.substring(1) + " ")).orElse(false))
                    .findFirst().orElseThrow(() -> new AssertionError("no process of " + killedId + " found"));
            assertThat(killed.destroyForcibly()).isTrue(); // SIGKILL: no goodbye, no shutdown hook

            Poll.until(Duration.ofSeconds(60), () -> failure(url, KILLED_RANK).isPresent()
                            && failure(url, FailingRanksProgram.THROWING_RANK).isPresent()
                            && failure(url, FailingRanksProgram.HALTING_RANK).isPresent(),
                    () -> "three failures on /api/events: " + get(url + "api/events").encodePrettily() + "; output:\n" + out);
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

            JsonObject halted = failure(url, FailingRanksProgram.HALTING_RANK).orElseThrow();
            assertThat(halted.getInteger("exit_status")).isZero();
            assertThat(halted.getString("detail")).contains("exit status 0 without leaving the job");

            for (int rank : List.of(KILLED_RANK, FailingRanksProgram.THROWING_RANK, FailingRanksProgram.HALTING_RANK)) {
                assertThat(member(url, rank).getString("state")).as("rank " + rank).isEqualTo("failed");
            }
            assertThat(member(url, 0).getString("state")).isEqualTo("joined");
            assertThat(failure(url, 0)).isEmpty();
            Files.writeString(done, "seen");
            // The launch ends with the worst status, the SIGKILL's.
            assertThat(exit.get(120, TimeUnit.SECONDS)).as(out.toString()).isEqualTo(137);
        } finally {
            Files.writeString(done, "seen"); // on failure: the ranks still running finish
            exit.get(120, TimeUnit.SECONDS);
            Files.deleteIfExists(done);
        }
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
