package dev.canopy.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.internal.leader.LatencySnapshot;
import dev.canopy.collectives.internal.leader.PlanStore;
import dev.canopy.collectives.internal.leader.PublishedPlan;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.internal.membership.testing.ServerSideExpiry;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.testing.Await;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * The dashboard's endpoints against a running grid: six real nodes on three emulated sites, a real ZooKeeper
 * (read with the job's credentials) and real HTTP. The member that leaves goes last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(120)
class DashboardApiTest {

    private static DashboardGrid grid;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() {
        grid = new DashboardGrid("dash-api-" + System.nanoTime());
        // The reader writes the members before it reads plans and forecasts and says "ok": wait for both.
        Await.until(() -> get("/api/grid").body().getJsonArray("members").size() == 6
                && get("/api/grid").body().getString("source_status").equals("ok"), () -> "six members on /api/grid, read");
    }

    @AfterAll
    static void stop() {
        if (grid != null) {
            grid.close();
        }
    }

    @Test
    @Order(1)
    void gridListsEveryMemberWithRankSiteCoordinatesAndState() {
        JsonObject body = get("/api/grid").body();
        assertThat(body.getBoolean("started")).isTrue();
        assertThat(body.getString("source_status")).isEqualTo("ok");
        JsonArray members = body.getJsonArray("members");
        for (int rank = 0; rank < 6; rank++) {
            JsonObject member = members.getJsonObject(rank);
            assertThat(member.getInteger("rank")).isEqualTo(rank);
            assertThat(member.getString("state")).isEqualTo("joined");
            assertThat(member.getJsonObject("coordinates").fieldNames()).containsExactlyInAnyOrder("wan_group", "site",
                    "lan", "cluster", "host");
            assertThat(member.getString("site")).isEqualTo(member.getJsonObject("coordinates").getString("site"));
            assertThat(member.getString("address")).startsWith("127.0.0.1:");
        }
        assertThat(body.getJsonArray("sites").stream().map(s -> ((JsonObject) s).getString("name")))
                .containsExactlyInAnyOrder("north", "south", "east");
        assertThat(body.getJsonArray("levels")).containsExactly("heavy_wan", "light_wan", "lan", "cluster", "host");
    }

    @Test
    @Order(2)
    void linksGiveTheConfiguredRoundTripOfEverySitePair() {
        JsonObject body = get("/api/links").body();
        JsonArray pairs = body.getJsonArray("pairs");
        assertThat(pairs).hasSize(3);
        for (Object value : pairs) {
            JsonObject pair = (JsonObject) value;
            assertThat(pair.fieldNames()).contains("a", "b", "configured_rtt_ms", "measured_rtt_ms", "forecast_rtt_ms",
                    "forecaster", "error_ms", "bandwidth_mbps");
            String key = pair.getString("a").compareTo(pair.getString("b")) < 0
                    ? pair.getString("a") + "~" + pair.getString("b") : pair.getString("b") + "~" + pair.getString("a");
            double expected = switch (key) {
                case "north~south" -> 12;
                case "east~north" -> 60;
                case "east~south" -> 70;
                default -> throw new AssertionError("unexpected pair " + key);
            };
            assertThat(pair.getDouble("configured_rtt_ms")).isEqualTo(expected);
        }
    }

    @Test
    @Order(3)
    void planDrawsEveryLevelsTreesOverAllRanksWithPredictedArrivals() {
        JsonObject body = get("/api/plan?root=2").body();
        assertThat(body.getString("source")).isEqualTo("configured");
        assertThat(body.getInteger("root")).isEqualTo(2);
        List<Integer> reached = new ArrayList<>();
        for (Object level : body.getJsonArray("levels")) {
            JsonObject group = (JsonObject) level;
            assertThat(group.getString("algorithm")).isNotBlank();
            for (Object edge : group.getJsonArray("edges")) {
                reached.add(((JsonObject) edge).getInteger("child"));
                assertThat(((JsonObject) edge).getDouble("child_arrival_ms")).isGreaterThan(0);
            }
        }
        assertThat(reached).containsExactlyInAnyOrder(0, 1, 3, 4, 5);
        assertThat(body.getJsonArray("arrivals")).hasSize(6);
        assertThat(body.getDouble("predicted_completion_ms")).isGreaterThanOrEqualTo(30); // east is 30 ms one way
    }

    @Test
    @Order(4)
    void badPathsMethodsAndParametersGet4xxJson() {
        assertError(get("/api/plan?root=6"), 400, "root 6 is not a rank");
        assertError(get("/api/plan?root=-1"), 400, "give 0 to");
        assertError(get("/api/plan?root=abc"), 400, "not an integer");
        assertError(get("/api/plan?root=1&root=2"), 400, "given 2 times");
        assertError(get("/api/grid?verbose=1"), 400, "unknown parameter 'verbose'");
        assertError(get("/api/events?since=-5"), 400, "parameter 'since'");
        assertError(get("/api/collectives?limit=100000"), 400, "give 1 to 50");
        assertError(get("/api/nothing"), 404, "no endpoint /api/nothing");
        assertError(get("/no/such/page"), 404, "no page");
        assertError(send(HttpRequest.newBuilder(URI.create(grid.url("/api/grid"))).POST(HttpRequest.BodyPublishers.ofString("{}"))),
                405, "read-only");
        assertThat(get("/api/grid").status()).isEqualTo(200); // still serving
    }

    @Test
    @Order(5)
    void skewReportNamesTheRankThatStartedLate() {
        // A first bcast loads the collectives' classes on this thread (tens of ms on a loaded machine, which
        // would make the ranks called after the first look late); the second is the one measured.
        for (int rank = 0; rank < 6; rank++) {
            grid.collectives.get(rank).bcast(rank == 0 ? Buffer.buffer("warm") : null, 0);
        }
        Await.until(() -> operations().size() >= 1, () -> "the warm-up bcast on /api/collectives");
        int late = 4;
        long delayMs = 400;
        List<io.vertx.core.Future<Buffer>> results = new ArrayList<>();
        for (int rank = 0; rank < 6; rank++) {
            if (rank != late) {
                results.add(grid.collectives.get(rank).bcast(rank == 0 ? Buffer.buffer("skew") : null, 0));
            }
        }
        io.vertx.core.Promise<Buffer> delayed = io.vertx.core.Promise.promise();
        grid.vertx.setTimer(delayMs, id -> grid.collectives.get(late).bcast(null, 0).onComplete(delayed));
        results.add(delayed.future());
        results.forEach(result -> assertThat(Await.result(result).toString()).isEqualTo("skew"));

        Await.until(() -> operations().size() >= 2, () -> "the bcast on /api/collectives");
        JsonObject bcast = operations().getJsonObject(0);
        assertThat(bcast.getString("op")).isEqualTo("bcast");
        assertThat(bcast.getString("status")).isEqualTo("ok");
        assertThat(bcast.getJsonObject("algorithms").fieldNames()).contains("heavy_wan");
        JsonArray lateRanks = bcast.getJsonObject("skew").getJsonArray("late");
        JsonObject named = lateRanks.stream().map(JsonObject.class::cast).filter(l -> l.getInteger("rank") == late)
                .findFirst().orElseThrow(() -> new AssertionError("rank " + late + " not named late in " + bcast.encodePrettily()));
        assertThat(named.getString("cause")).isEqualTo("process");
        assertThat(named.getString("site")).isEqualTo(grid.grid.world().get(late).member(late).coordinates().site());
        assertThat(named.getDouble("late_ms")).isGreaterThan(delayMs * 0.75);
        // Nobody else started late: the others are on time or waited for rank 4 (upstream).
        lateRanks.stream().map(JsonObject.class::cast).filter(l -> l.getInteger("rank") != late)
                .forEach(l -> assertThat(l.getString("cause")).as(l.encode()).isNotEqualTo("process"));
        assertThat(bcast.getJsonObject("skew").getJsonArray("ranks")).hasSize(6);
    }

    @Test
    @Order(6)
    void metricsScrapeCleanlyInThePrometheusTextFormat() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(grid.url("/metrics"))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type").orElse("")).startsWith("text/plain");
        List<PrometheusText.Sample> samples = PrometheusText.parse(response.body());
        assertThat(value(samples, "canopy_members", "state", "joined")).isEqualTo(6);
        assertThat(samples).anyMatch(s -> s.name().equals("canopy_collective_latency_seconds_bucket")
                && "bcast".equals(s.labels().get("op")) && s.labels().containsKey("algorithm") && s.value() >= 1);
        assertThat(samples).anyMatch(s -> s.name().equals("canopy_collective_bytes_total") && s.value() >= 4);
        assertThat(samples).anyMatch(s -> s.name().equals("canopy_link_configured_rtt_seconds")
                && s.value() == 0.012);
        assertThat(samples).anyMatch(s -> s.name().equals("canopy_plan_epoch"));
        // The event-loop delay timer fires every 100 ms from the start; the multicast counters are there, at 0 here.
        assertThat(samples).anyMatch(s -> s.name().equals("canopy_eventloop_delay_seconds_count") && s.value() >= 1);
        assertThat(samples).anyMatch(s -> s.name().equals("canopy_eventloop_delay_seconds_max") && s.value() >= 0);
        assertThat(samples).anyMatch(s -> s.name().equals("canopy_multicast_retransmissions_total") && s.value() == 0);
        assertThat(samples).anyMatch(s -> s.name().equals("canopy_multicast_bcasts_total")
                && "tree".equals(s.labels().get("carrier")));
        // vertx-micrometer-metrics: the dashboard's Vert.x event loops (pending tasks per loop thread) and its worker
        // pools, which the ZooKeeper reads have used by now.
        assertThat(samples).anyMatch(s -> s.name().equals("netty_eventexecutor_tasks_pending")
                && s.labels().getOrDefault("name", "").startsWith("vert.x-eventloop-thread-"));
        assertThat(samples).anyMatch(s -> s.name().equals("vertx_pool_completed_total")
                && "worker".equals(s.labels().get("pool_type")) && s.value() >= 1);
        assertThat(samples).noneMatch(s -> s.name().startsWith("netty_eventexecutor_workers"));
    }

    @Test
    @Order(7)
    void publishedPlansAppearAsReplanEventsWithTheirGainAndPushedOverTheStream() throws Exception {
        BlockingQueue<String> stream = openStream();
        String first = stream.poll(10, TimeUnit.SECONDS);
        assertThat(first).startsWith("{").contains("\"plan\"");

        CanopyNode leader = grid.grid.nodes().get(0);
        PlanStore store = new PlanStore(leader.context(), leader.zooKeeper(), leader.job(), grid.grid.secret());
        Await.result(store.ensureCreated());
        List<String> names = grid.grid.world().get(0).members().stream().map(m -> m.id().value()).toList();
        String fence = "/members/" + leader.id().value();
        assertThat(Await.result(store.publish(plan(names, 1, 10, 80, "first plan"), fence)))
                .isEqualTo(PlanStore.PublishOutcome.PUBLISHED);
        Await.until(Duration.ofSeconds(10), () -> get("/api/plan").body().getString("source").equals("published"),
                () -> "plan epoch 1 on /api/plan");
        long eventsBefore = get("/api/events").body().getLong("last_seq");
        long pushedAt = System.nanoTime();
        assertThat(Await.result(store.publish(plan(names, 2, 40, 50, "re-plan: east slowed down"), fence)))
                .isEqualTo(PlanStore.PublishOutcome.PUBLISHED);
        // The events part's version is its last event's number: the push that carries the re-plan's event.
        String pushed = awaitLine(stream, line -> new JsonObject(line).getLong("events") > eventsBefore, Duration.ofSeconds(10));
        assertThat(pushed).as("a pushed change after the re-plan").isNotNull();
        // The stream told of the change within the read interval and a push (generous for a loaded machine).
        assertThat(Duration.ofNanos(System.nanoTime() - pushedAt)).isLessThan(Duration.ofSeconds(5));

        Await.until(Duration.ofSeconds(10), () -> replans().size() == 2, () -> "two re-plan events");
        JsonObject second = replans().get(1);
        assertThat(second.getLong("epoch")).isEqualTo(2);
        assertThat(second.getString("detail")).isEqualTo("re-plan: east slowed down");
        // Epoch 1's trees on epoch 2's latencies (every link 4 times slower) take 4 times as long as on its own.
        double previousOnNew = second.getDouble("previous_plan_on_new_latencies_ms");
        assertThat(previousOnNew).isGreaterThan(100);
        assertThat(second.getDouble("predicted_gain_ms")).isCloseTo(previousOnNew - 50, org.assertj.core.data.Offset.offset(1e-9));
        JsonObject plan = get("/api/plan").body();
        assertThat(plan.getLong("epoch")).isEqualTo(2);
        assertThat(plan.getString("reason")).isEqualTo("re-plan: east slowed down");
    }

    @Test
    @Order(8)
    void survivesAMemberLeaving() {
        EmulatedGrid emulated = grid.grid;
        CanopyNode leaving = emulated.nodes().get(emulated.nodes().size() - 1);
        String id = leaving.id().value();
        Await.result(leaving.close());
        Await.until(Duration.ofSeconds(15), () -> get("/api/grid").body().getJsonArray("members").stream()
                .map(JsonObject.class::cast).anyMatch(m -> m.getString("id").equals(id) && m.getString("state").equals("left")),
                () -> id + " shown as left");
        assertThat(get("/api/events").body().getJsonArray("events").stream().map(JsonObject.class::cast)
                .anyMatch(e -> e.getString("kind").equals("leave") && e.getString("member").equals(id))).isTrue();
        assertThat(get("/api/plan").status()).isEqualTo(200);
        assertThat(get("/api/links").status()).isEqualTo(200);
        assertThat(get("/api/grid").body().getJsonArray("members")).hasSize(6); // ranks never move
    }

    /**
     * A member whose ZooKeeper session the server expires (as for a member cut off or frozen) stops its heartbeats; its
     * znode goes (a suspicion), the others' failure detectors confirm it by its silence, and the grid shows it failed.
     */
    @Test
    @Order(9)
    void showsAMemberTheFailureDetectorJudgedFailed() throws Exception {
        CanopyNode victim = grid.grid.nodes().get(2);
        String id = victim.id().value();
        ServerSideExpiry.expire(victim.zooKeeper());
        Await.until(Duration.ofSeconds(30), () -> stateOf(id).equals("failed"), () -> id + " shown as failed, is " + stateOf(id));
        JsonObject failure = failureEvents(id).stream().findFirst()
                .orElseThrow(() -> new AssertionError("no failure event for " + id + " on /api/events"));
        assertThat(failure.getString("member")).isEqualTo(id);
        assertThat(grid.grid.world().get(0).member(failure.getInteger("rank")).id()).isEqualTo(victim.id());
        assertThat(failure.getString("site")).isEqualTo(victim.coordinates().site());
        assertThat(failure.getString("detail")).contains(id + " (rank ").contains(" failed: ").contains("(seen by p");
        // Only one verdict counts, however many detectors reach it; the member stays failed on later reads.
        Await.result(grid.dashboard.refresh());
        assertThat(failureEvents(id)).hasSize(1);
        assertThat(stateOf(id)).isEqualTo("failed");
        HttpResponse<String> metrics = HTTP.send(HttpRequest.newBuilder(URI.create(grid.url("/metrics"))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(value(PrometheusText.parse(metrics.body()), "canopy_members", "state", "failed")).isEqualTo(1);
    }

    private static List<JsonObject> failureEvents(String id) {
        return get("/api/events").body().getJsonArray("events").stream().map(JsonObject.class::cast)
                .filter(e -> e.getString("kind").equals("failure") && e.getString("member").equals(id)).toList();
    }

    private static String stateOf(String id) {
        return get("/api/grid").body().getJsonArray("members").stream().map(JsonObject.class::cast)
                .filter(m -> m.getString("id").equals(id)).map(m -> m.getString("state")).findFirst().orElse("absent");
    }

    /** A plan whose snapshot has every link at {@code linkMs} one way. */
    private static PublishedPlan plan(List<String> names, long epoch, double linkMs, double completionMs, String reason) {
        int n = names.size();
        double[] oneWay = IntStream.range(0, n * n).mapToDouble(i -> i / n == i % n ? 0 : linkMs).toArray();
        return new PublishedPlan(epoch, new LatencySnapshot(names, oneWay), completionMs, reason);
    }

    private static List<JsonObject> replans() {
        return get("/api/events").body().getJsonArray("events").stream().map(JsonObject.class::cast)
                .filter(e -> e.getString("kind").equals("replan")).toList();
    }

    private static JsonArray operations() {
        JsonArray communicators = get("/api/collectives").body().getJsonArray("communicators");
        return communicators.isEmpty() ? new JsonArray() : communicators.getJsonObject(0).getJsonArray("operations");
    }

    private static double value(List<PrometheusText.Sample> samples, String name, String label, String labelValue) {
        return samples.stream().filter(s -> s.name().equals(name) && labelValue.equals(s.labels().get(label)))
                .findFirst().orElseThrow(() -> new AssertionError(name + "{" + label + "=" + labelValue + "} missing")).value();
    }

    /** The {@code data:} lines of the event stream's events, as they arrive. */
    private static BlockingQueue<String> openStream() throws Exception {
        HttpResponse<InputStream> response = HTTP.send(HttpRequest.newBuilder(URI.create(grid.url("/api/stream"))).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.startsWith("data: ")) {
                        lines.add(line.substring(6));
                    }
                }
            } catch (java.io.IOException e) {
                // the stream closes with the dashboard
            }
        }, "sse-reader");
        reader.setDaemon(true);
        reader.start();
        return lines;
    }

    private static String awaitLine(BlockingQueue<String> lines, java.util.function.Predicate<String> wanted, Duration deadline)
            throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        while (System.nanoTime() < end) {
            String line = lines.poll(end - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (line != null && wanted.test(line)) {
                return line;
            }
        }
        return null;
    }

    private record Reply(int status, JsonObject body) {
    }

    private static Reply get(String path) {
        return send(HttpRequest.newBuilder(URI.create(grid.url(path))));
    }

    private static Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = HTTP.send(request.timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.headers().firstValue("content-type").orElse("")).startsWith("application/json");
            return new Reply(response.statusCode(), new JsonObject(response.body()));
        } catch (java.io.IOException e) {
            throw new AssertionError("GET " + path(request) + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static String path(HttpRequest.Builder request) {
        return request.build().uri().toString();
    }

    private static void assertError(Reply reply, int status, String message) {
        assertThat(reply.status()).isEqualTo(status);
        assertThat(reply.body().getInteger("status")).isEqualTo(status);
        assertThat(reply.body().getString("error")).contains(message);
    }
}
