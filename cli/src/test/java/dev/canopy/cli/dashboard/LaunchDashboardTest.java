package dev.canopy.cli.dashboard;

import static dev.canopy.cli.dashboard.DashboardClient.awaitUrl;
import static dev.canopy.cli.dashboard.DashboardClient.get;
import static dev.canopy.cli.dashboard.DashboardClient.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.testing.Poll;
import dev.canopy.gridconfig.GridConfigs;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code canopy launch --dashboard}: four JVMs on the bundled two-site grid publish their collectives' timings, and
 * the launcher's dashboard shows the bcast that rank 3 joined late on purpose, with rank 3 named process-late.
 */
@Tag("multiprocess")
@Timeout(240)
class LaunchDashboardTest {

    private static final int LATE_RANK = 3;

    @TempDir
    Path directory;

    @Test
    void theSkewReportOfAMultiProcessJobNamesTheRankThatWasLate() throws Exception {
        Path config = Files.writeString(directory.resolve("two-site.rsl"), GridConfigs.bundledText("two-site.rsl"));
        StringWriter out = new StringWriter();
        CompletableFuture<Integer> exit = run(out, "launch", "--config", config.toString(), "--class",
                SkewedBcastProgram.class.getName(), "--dashboard", "0", "--timeout", "200");
        try {
            String url = awaitUrl(out, exit);
            Poll.until(Duration.ofSeconds(150), () -> bcast(get(url + "api/collectives")).isPresent() || exit.isDone(),
                    () -> "the bcast on /api/collectives: " + get(url + "api/collectives").encode() + "; output:\n" + out);
            JsonObject bcast = bcast(get(url + "api/collectives")).orElseThrow(() -> new AssertionError(
                    "the launch ended before its bcast was shown; output:\n" + out));

            assertThat(bcast.getString("status")).isEqualTo("ok");
            assertThat(bcast.getInteger("root")).isZero();
            assertThat(bcast.getLong("bytes")).isEqualTo(4096);
            JsonObject skew = bcast.getJsonObject("skew");
            assertThat(skew.getJsonArray("ranks")).hasSize(4).allSatisfy(rank -> {
                assertThat(((JsonObject) rank).getDouble("arrival_ms")).isNotNull();
                assertThat(((JsonObject) rank).getDouble("completion_ms")).isNotNull();
            });
            JsonObject late = lateEntry(skew, LATE_RANK).orElseThrow(() -> new AssertionError(
                    "rank " + LATE_RANK + " not named late: " + skew.encodePrettily()));
            assertThat(late.getString("cause")).isEqualTo("process");
            assertThat(late.getString("site")).isEqualTo("beta");
            assertThat(late.getDouble("late_ms")).as(skew.encodePrettily())
                    .isGreaterThan(SkewedBcastProgram.DELAY_MS * 0.8);
            // Nobody else was held up by a process of its own as long as the straggler.
            assertThat(skew.getJsonArray("late").stream().map(JsonObject.class::cast)
                    .filter(entry -> entry.getInteger("rank") != LATE_RANK && entry.getString("cause").equals("process")))
                    .allSatisfy(entry -> assertThat(entry.getDouble("late_ms")).isLessThan(SkewedBcastProgram.DELAY_MS / 2.0));
        } finally {
            Files.writeString(directory.resolve(SkewedBcastProgram.SEEN), "seen");
        }
        assertThat(exit.get(120, TimeUnit.SECONDS)).as(out.toString()).isZero();
    }

    /** The newest bcast of WORLD, once every rank has reported it. */
    private static Optional<JsonObject> bcast(JsonObject collectives) {
        for (Object communicator : collectives.getJsonArray("communicators")) {
            for (Object operation : ((JsonObject) communicator).getJsonArray("operations")) {
                JsonObject json = (JsonObject) operation;
                if (json.getString("op").equals("bcast")) {
                    return Optional.of(json);
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<JsonObject> lateEntry(JsonObject skew, int rank) {
        JsonArray late = skew.getJsonArray("late");
        return late.stream().map(JsonObject.class::cast).filter(entry -> entry.getInteger("rank") == rank).findFirst();
    }
}
