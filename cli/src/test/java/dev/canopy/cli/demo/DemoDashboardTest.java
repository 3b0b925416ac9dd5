package dev.canopy.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyCommand;
import dev.canopy.cli.testing.Poll;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code canopy demo} serves its dashboard: the URL on its own line, the grid, a skew report naming the late rank, the
 * multicast view, and the live re-plan's two epochs.
 */
@Timeout(180)
class DemoDashboardTest {

    private static final String TWO_SITES = """
            +( &(type = grid) (name = "pair") (levels = (lan multicast)) )
             ( &(type = subjob) (label = "alpha") (count = 2) (site = "alpha") (wan_group = "alpha") )
             ( &(type = subjob) (label = "beta") (count = 2) (site = "beta") (wan_group = "beta") )
             ( &(type = link) (between = "alpha" "beta") (rtt_ms = 40) )
            """;
    private static final Pattern URL = Pattern.compile("(?m)^dashboard: (http://127\\.0\\.0\\.1:(\\d+)/)$");

    @TempDir
    Path dir;

    @Test
    void demoServesTheGridAndASkewReportNamingTheRankLateOnPurpose() throws Exception {
        Path config = Files.writeString(dir.resolve("pair.rsl"), TWO_SITES);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> new CommandLine(new CanopyCommand())
                .setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute("demo", "--config", config.toString(), "--pings", "1", "--job", "demo-dash", "--duration", "6"));
        Poll.until(Duration.ofSeconds(120), () -> out.toString().contains("running for 6 s") || exit.isDone(),
                () -> "the demo's showcase: " + out + err);
        Matcher url = URL.matcher(out.toString());
        assertThat(url.find()).as(out.toString()).isTrue();

        JsonObject grid = get(url.group(1) + "api/grid");
        assertThat(grid.getJsonArray("members")).hasSize(4);
        JsonArray operations = get(url.group(1) + "api/collectives").getJsonArray("communicators").getJsonObject(0)
                .getJsonArray("operations");
        assertThat(operations.size()).isGreaterThanOrEqualTo(3);
        JsonObject skewed = operations.getJsonObject(operations.size() - 2); // the second operation, oldest first
        assertThat(skewed.getString("op")).isEqualTo("bcast");
        assertThat(skewed.getJsonObject("skew").getJsonArray("late").stream().map(JsonObject.class::cast)
                .filter(late -> late.getInteger("rank") == 3).findFirst().orElseThrow().getString("cause")).isEqualTo("process");
        assertThat(out.toString()).contains("rank 3 (beta)").contains("late: process");
        // The multicast race published its counters: every member ran the same bcasts by multicast.
        JsonObject multicast = get(url.group(1) + "api/multicast");
        assertThat(multicast.getBoolean("active")).as(multicast.encode()).isTrue();
        assertThat(multicast.getJsonArray("members")).hasSize(4);
        assertThat(multicast.getJsonObject("totals").getLong("multicast_bcasts")).isPositive();
        assertThat(out.toString()).contains("multicast counters (the dashboard's Multicast view, /api/multicast)");
        // The window occupancy is there for every member (a sample: 0 once everything is acknowledged).
        assertThat(multicast.getJsonArray("members").getJsonObject(0).getInteger("window_size")).isPositive();
        // Its live re-plan (a run under 40 s re-plans on the demo's measurements): both epochs are re-plan events,
        // the second with its gain, and the plan view shows the published epoch 2.
        JsonArray replans = new JsonArray(get(url.group(1) + "api/events").getJsonArray("events").stream()
                .filter(e -> ((JsonObject) e).getString("kind").equals("replan")).toList());
        assertThat(replans).hasSize(2);
        assertThat(replans.getJsonObject(1).getString("detail")).startsWith("re-plan: new plan")
                .contains("after slowing down alpha~beta");
        assertThat(replans.getJsonObject(1).containsKey("predicted_gain_ms")).isTrue();
        JsonObject plan = get(url.group(1) + "api/plan");
        assertThat(plan.getString("source")).isEqualTo("published");
        assertThat(plan.getLong("epoch")).isEqualTo(2);

        assertThat(exit.get(60, TimeUnit.SECONDS)).as(err.toString()).isZero();
        assertThat(out.toString()).contains("all nodes left the job and closed");
    }

    private static JsonObject get(String url) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return new JsonObject(response.body());
    }
}
