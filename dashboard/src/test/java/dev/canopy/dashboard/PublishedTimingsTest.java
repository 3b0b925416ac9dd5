package dev.canopy.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.collectives.internal.timing.OperationTiming;
import dev.canopy.collectives.internal.timing.OperationTimings;
import dev.canopy.collectives.internal.timing.TimingsPublisher;
import dev.canopy.collectives.internal.timing.TimingsZnode;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A dashboard with no recorder of its own (as in {@code canopy launch} and {@code node}) shows the collectives the
 * members publish in ZooKeeper: six real nodes on three emulated sites, each with its own {@link OperationTimings} and
 * {@link TimingsPublisher}; a bcast that rank 4 joins 400 ms late is shown with rank 4 process-late, timings
 * forged under another secret, for a non-member, or claiming another rank are ignored, and a client without the
 * job's credentials can neither read nor overwrite them.
 */
@Timeout(120)
class PublishedTimingsTest {

    private static final JobId JOB = JobId.of("published-timings");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final long FORGED_SEQUENCE = 50;

    @Test
    void theMembersPublishedTimingsMakeTheSkewReportAndForgeriesAreIgnored() throws Exception {
        GridModel model = GridConfigs.parse(DashboardGrid.THREE_SITES, "dash-three.rsl").orElseThrow();
        Vertx vertx = Vertx.vertx();
        List<TimingsPublisher> publishers = new ArrayList<>();
        try (EmulatedGrid grid = EmulatedGrid.start(model, JOB.name(), 11)) {
            List<Collectives> collectives = new ArrayList<>();
            for (Communicator world : grid.world()) {
                CanopyNode node = nodeOf(grid, world);
                OperationTimings timings = new OperationTimings();
                collectives.add(new Collectives(world, ConfiguredPlans.of(world.members(), model),
                        CollectiveSettings.defaults()).withObserver(timings));
                publishers.add(TimingsPublisher.start(vertx, node.zooKeeper(), JOB, node.id().value(), world.rank(),
                        timings, new TimingsZnode(grid.secret()), Duration.ofMillis(100)));
            }
            JobDashboard dashboard = Await.result(JobDashboard.start(vertx, DashboardOptions.onLoopback(0),
                    grid.zooKeeperConnectString(), Optional.empty(), JOB, Optional.of(grid.secret()), model, Optional.empty()));
            try {
                String url = "http://127.0.0.1:" + dashboard.port() + "/api/collectives";
                assertThat(get(url).getBoolean("recorded")).isTrue();
                forge(grid);
                // Two reads: the first may have begun before the forgeries were there.
                Await.result(dashboard.refresh());
                Await.result(dashboard.refresh());

                int late = 4;
                List<Future<Buffer>> results = new ArrayList<>();
                for (int process = 0; process < collectives.size(); process++) {
                    Collectives member = collectives.get(process);
                    if (member.rank() != late) {
                        results.add(member.bcast(member.rank() == 0 ? Buffer.buffer("skew") : null, 0));
                    } else {
                        Promise<Buffer> delayed = Promise.promise();
                        vertx.setTimer(400, id -> member.bcast(null, 0).onComplete(delayed));
                        results.add(delayed.future());
                    }
                }
                results.forEach(result -> assertThat(Await.result(result).toString()).isEqualTo("skew"));

                Await.until(() -> !operations(get(url)).isEmpty(), () -> "the bcast on /api/collectives: " + get(url));
                JsonArray operations = operations(get(url));
                assertThat(operations).hasSize(1);
                JsonObject bcast = operations.getJsonObject(0);
                assertThat(bcast.getString("op")).isEqualTo("bcast");
                assertThat(bcast.getLong("seq")).isZero();
                assertThat(bcast.getString("status")).isEqualTo("ok");
                assertThat(bcast.getLong("bytes")).isEqualTo(4);
                JsonObject skew = bcast.getJsonObject("skew");
                assertThat(skew.getJsonArray("ranks")).hasSize(6);
                JsonObject named = skew.getJsonArray("late").stream().map(JsonObject.class::cast)
                        .filter(entry -> entry.getInteger("rank") == late).findFirst()
                        .orElseThrow(() -> new AssertionError("rank " + late + " not named: " + skew.encodePrettily()));
                assertThat(named.getString("cause")).isEqualTo("process");
                assertThat(named.getDouble("late_ms")).isGreaterThan(300);
                assertThat(get("http://127.0.0.1:" + dashboard.port() + "/api/grid").getString("source_status"))
                        .isEqualTo("ok");
                assertOthersCannotTouch(grid.zooKeeperConnectString(), nodeOf(grid, grid.world().get(0)).id().value());
            } finally {
                Await.result(dashboard.close());
                publishers.forEach(TimingsPublisher::stop);
            }
        } finally {
            Await.result(vertx.close());
        }
    }

    /**
     * Writes, with a member's ZooKeeper credentials, a complete bcast of sequence {@value #FORGED_SEQUENCE} for every
     * rank: sealed under another secret at the real members' paths, and, sealed right, for a member that is not in the
     * job and for a member claiming another's rank. None of it may become an operation.
     */
    private static void forge(EmulatedGrid grid) throws Exception {
        CuratorFramework client = grid.nodes().get(0).zooKeeper();
        TimingsZnode foreign = new TimingsZnode(JobSecret.generate());
        TimingsZnode ours = new TimingsZnode(grid.secret());
        for (Communicator world : grid.world()) {
            String member = nodeOf(grid, world).id().value();
            int rank = world.rank();
            client.create().creatingParentContainersIfNeeded().forPath(TimingsZnode.memberPath(JOB, member),
                    foreign.encode(JOB, forged(member, rank)));
        }
        client.create().forPath(TimingsZnode.memberPath(JOB, "intruder"), ours.encode(JOB, forged("intruder", 0)));
        Communicator first = grid.world().get(0);
        String firstMember = nodeOf(grid, first).id().value();
        int wrongRank = first.rank() == 0 ? 1 : 0;
        client.setData().forPath(TimingsZnode.memberPath(JOB, firstMember), ours.encode(JOB, forged(firstMember, wrongRank)));
    }

    /** A client without the job's credentials can neither read nor overwrite a member's timings. */
    private static void assertOthersCannotTouch(String zooKeeper, String member) throws Exception {
        String path = TimingsZnode.memberPath(JOB, member);
        try (CuratorFramework stranger = CuratorFrameworkFactory.newClient(zooKeeper, new RetryOneTime(100))) {
            stranger.start();
            assertThatThrownBy(() -> stranger.getData().forPath(path)).isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> stranger.setData().forPath(path, new byte[] {1}))
                    .isInstanceOf(KeeperException.NoAuthException.class);
        }
    }

    /** The node whose WORLD {@code world} is. */
    private static CanopyNode nodeOf(EmulatedGrid grid, Communicator world) {
        String id = world.member(world.rank()).id().value();
        return grid.nodes().stream().filter(node -> node.id().value().equals(id)).findFirst().orElseThrow();
    }

    private static TimingsZnode.MemberTimings forged(String member, int rank) {
        long now = System.currentTimeMillis() * 1_000;
        return new TimingsZnode.MemberTimings(member, rank, List.of(new OperationTiming(1, FORGED_SEQUENCE, Operation.BCAST,
                0, 64, 0, now, Optional.of(now + 1_000), Optional.empty())));
    }

    private static JsonArray operations(JsonObject collectives) {
        JsonArray communicators = collectives.getJsonArray("communicators");
        return communicators.isEmpty() ? new JsonArray() : communicators.getJsonObject(0).getJsonArray("operations");
    }

    private static JsonObject get(String url) {
        try {
            return new JsonObject(HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
        } catch (Exception e) {
            throw new AssertionError("GET " + url + ": " + e, e);
        }
    }
}
