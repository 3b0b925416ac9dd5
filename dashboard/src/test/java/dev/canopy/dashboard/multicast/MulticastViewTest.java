package dev.canopy.dashboard.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.multicast.BroadcastLayers;
import dev.canopy.collectives.internal.multicast.MulticastFabrics;
import dev.canopy.collectives.internal.multicast.MulticastPath;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.emulation.ThreadDelayScheduler;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.testing.Await;
import dev.canopy.dashboard.Dashboard;
import dev.canopy.dashboard.DashboardOptions;
import dev.canopy.dashboard.model.DashboardState;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code /api/multicast} over a real multicast bcast: four members on one cluster whose bcast runs over the
 * in-process emulated-ud fabric with loss, so the reliable layer has to retransmit; the endpoint shows what
 * every member's {@link MulticastPath#stats()} says, its send windows' occupancy live while bcasts run, and refuses
 * bad parameters with a 4xx.
 */
@Timeout(180)
class MulticastViewTest {

    private static final String ONE_CLUSTER = """
            +
            ( &(type = grid) (name = "dash-mcast") (levels = (lan binomial) (cluster fabric_multicast)) )
            ( &(type = subjob) (label = "c") (count = 4) )
            """;
    private static final int BCASTS = 3;
    private static final int BYTES = 64 * 1024;
    /** At most this many bcasts to catch a send window holding packets (the first lost packet does it). */
    private static final int LIVE_ROUNDS = 30;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void showsEveryMembersCountersAndRefusesBadParameters() throws Exception {
        long seed = System.nanoTime();
        GridModel grid = GridConfigs.parse(ONE_CLUSTER, "dash-mcast.rsl").orElseThrow();
        ThreadDelayScheduler wire = new ThreadDelayScheduler("dash-emulated-ud");
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(EmulatedUdOptions.faulty(0.05, 0, 100_000, seed), NanoClock.SYSTEM,
                wire);
        Vertx vertx = CanopyVertx.create();
        List<Collectives> members = new ArrayList<>();
        try (EmulatedGrid job = EmulatedGrid.start(grid, "dash-mcast-" + seed, 1)) {
            try {
                DashboardState state = new DashboardState("dash-mcast");
                Dashboard dashboard = Await.result(Dashboard.start(vertx, DashboardOptions.onLoopback(0), state, grid,
                        Optional.empty()));
                String base = "http://127.0.0.1:" + dashboard.port();
                assertThat(get(base + "/api/multicast").body().getBoolean("active")).isFalse();

                members.addAll(plugInto(job.world(), grid, MulticastFabrics.inProcess(fabric)));
                for (int i = 0; i < BCASTS; i++) {
                    List<Future<Buffer>> calls = new ArrayList<>();
                    for (Collectives member : members) {
                        calls.add(member.bcast(member.rank() == 0 ? Buffer.buffer(new byte[BYTES]) : null, 0));
                    }
                    Await.result(Future.all(calls));
                }
                MulticastFigures published = Await.result(new MulticastSource(state, "WORLD", members).publish());

                JsonObject body = get(base + "/api/multicast").body();
                assertThat(body.getBoolean("active")).as("bcast over multicast (seed %d; fallback: %s)", seed,
                        members.get(0).broadcastPath().fallback()).isTrue();
                assertThat(body.getString("communicator")).isEqualTo("WORLD");
                assertThat(body.getString("path")).contains("multicast (emulated-ud)");
                assertThat(body.getJsonArray("members")).hasSize(4);
                double fullest = 0;
                long retransmissions = 0;
                for (Collectives member : members) {
                    // What the source read; late ACKs may still move the live counters, never backwards.
                    MulticastPath.Stats stats = published.member(member.rank()).orElseThrow().stats();
                    MulticastPath.Stats now = Await.result(((MulticastPath) member.broadcastPath()).stats());
                    assertThat(now.substrate().feedbackReceived()).isGreaterThanOrEqualTo(stats.substrate().feedbackReceived());
                    JsonObject row = body.getJsonArray("members").getJsonObject(member.rank());
                    assertThat(row.getInteger("rank")).isEqualTo(member.rank());
                    assertThat(row.getString("site")).isEqualTo("c");
                    assertThat(row.getLong("multicast_bcasts")).isEqualTo(BCASTS).isEqualTo(stats.multicastBcasts());
                    assertThat(row.getLong("tree_bcasts")).isZero();
                    assertThat(row.getLong("retransmissions")).isEqualTo(stats.substrate().retransmissions());
                    assertThat(row.getLong("acks_received")).isEqualTo(stats.substrate().feedbackReceived());
                    assertThat(row.getInteger("window_slots_in_use")).isEqualTo(stats.windowSlotsInUse());
                    assertThat(row.getInteger("window_size")).isEqualTo(MulticastOptions.DEFAULTS.window());
                    assertThat(row.getDouble("window_occupancy"))
                            .isEqualTo((double) stats.windowSlotsInUse() / MulticastOptions.DEFAULTS.window());
                    fullest = Math.max(fullest, row.getDouble("window_occupancy"));
                    retransmissions += stats.substrate().retransmissions();
                }
                assertThat(body.getDouble("window_occupancy")).isEqualTo(fullest);
                JsonObject totals = body.getJsonObject("totals");
                assertThat(totals.getLong("multicast_bcasts")).isEqualTo(4L * BCASTS);
                assertThat(totals.getLong("retransmissions")).as("seed %d", seed).isEqualTo(retransmissions).isPositive();
                assertThat(totals.getLong("acks_received")).isPositive();
                assertThat(totals.getLong("packets_multicast")).isGreaterThanOrEqualTo(BCASTS * 37L); // 64 KiB: 37 packets

                String metrics = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                assertThat(sample(metrics, "canopy_multicast_retransmissions_total ")).isEqualTo(retransmissions);
                assertThat(sample(metrics, "canopy_multicast_bcasts_total{carrier=\"multicast\"} ")).isEqualTo(4 * BCASTS);

                windowOccupancyShowsLive(vertx, state, members, base);

                JsonObject one = get(base + "/api/multicast?rank=2").body();
                assertThat(one.getJsonArray("members")).hasSize(1);
                assertThat(one.getJsonArray("members").getJsonObject(0).getInteger("rank")).isEqualTo(2);

                assertError(get(base + "/api/multicast?rank=9"), 404, "no member with rank 9");
                assertError(get(base + "/api/multicast?rank=abc"), 400, "not an integer");
                assertError(get(base + "/api/multicast?rank=-1"), 400, "give 0 to");
                assertError(get(base + "/api/multicast?window=1"), 400, "unknown parameter 'window'");
                assertThat(get(base + "/api/multicast").status()).isEqualTo(200);
                Await.result(dashboard.close());
            } finally {
                // Before the grid closes, also when an assertion failed: an open multicast layer holds the nodes.
                members.forEach(member -> member.broadcastPath().close());
            }
        } finally {
            Await.result(vertx.close());
            wire.close();
        }
    }

    /**
     * While bcasts run, the periodically published figures show packets held in the send windows (a lost packet stays
     * until the retransmission timeout); once every packet is acknowledged, the windows are empty again.
     */
    private void windowOccupancyShowsLive(Vertx vertx, DashboardState state, List<Collectives> members, String base)
            throws Exception {
        MulticastSource source = new MulticastSource(state, "WORLD", members);
        long held = 0;
        try (MulticastSource.Publishing live = source.publishEvery(vertx, Duration.ofMillis(5))) {
            for (int round = 0; round < LIVE_ROUNDS && held == 0; round++) {
                List<Future<Buffer>> calls = new ArrayList<>();
                for (Collectives member : members) {
                    calls.add(member.bcast(member.rank() == 0 ? Buffer.buffer(new byte[BYTES]) : null, 0));
                }
                Future<?> all = Future.all(calls);
                while (!all.isComplete()) {
                    held = Math.max(held, windowSlotsInUse(get(base + "/api/multicast").body()));
                }
                Await.result(all);
            }
        }
        assertThat(held).as("packets held in a send window while bcasts ran, seen on /api/multicast").isPositive();
        Await.until(Duration.ofSeconds(30), () -> windowSlotsInUse(Await.result(source.publish()).toJson(Optional.empty())) == 0,
                () -> "every send window empty once acknowledged");
        assertThat(get(base + "/api/multicast").body().getDouble("window_occupancy")).isZero();
    }

    private static long windowSlotsInUse(JsonObject body) {
        return body.getJsonObject("totals").getLong("window_slots_in_use");
    }

    private static List<Collectives> plugInto(List<Communicator> world, GridModel grid, MulticastFabrics fabrics) {
        List<Future<Collectives>> opening = new ArrayList<>();
        for (Communicator member : world) {
            Collectives collectives = new Collectives(member, ConfiguredPlans.of(member.members(), grid),
                    CollectiveSettings.defaults());
            opening.add(BroadcastLayers.plugInto(collectives, grid.levels(), fabrics, MulticastOptions.DEFAULTS));
        }
        return opening.stream().map(Await::result).toList();
    }

    /** The value of the sample line starting with {@code prefix} (name and labels). */
    private static double sample(String metrics, String prefix) {
        return metrics.lines().filter(line -> line.startsWith(prefix)).map(line -> Double.parseDouble(
                line.substring(prefix.length()).trim())).findFirst().orElseThrow(() -> new AssertionError(
                "no sample " + prefix + " in " + metrics));
    }

    private record Reply(int status, JsonObject body) {
    }

    private Reply get(String url) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), new JsonObject(response.body()));
    }

    private static void assertError(Reply reply, int status, String message) {
        assertThat(reply.status()).isEqualTo(status);
        assertThat(reply.body().getString("error")).contains(message);
    }
}
