package dev.canopy.collectives.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.engine.Operation;
import dev.canopy.collectives.leader.LeaderSettings;
import dev.canopy.collectives.leader.PlanStore;
import dev.canopy.collectives.leader.PublishedPlan;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.TransportStack;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.probes.forecast.ForecastSettings;
import dev.canopy.probes.measure.ProbeSettings;
import dev.canopy.probes.schedule.ScheduleSettings;
import dev.canopy.topology.replan.ReplanPolicy;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * Sessions joined with live plans, end to end: three real nodes (one per site, sockets on 127.0.0.1, a real
 * ZooKeeper) probe each other through an emulated WAN; their plan leader publishes epoch 1; the a~c link
 * slows from 30 to 100 ms RTT, the probes measure it, the leader publishes epoch 2, and at the switch point
 * every member adopts it and broadcasts along its trees: relayed through b instead of the slow direct link.
 */
class LivePlansSessionTest {

    private static final String LEVEL_FILE = """
            +
            ( &(type = grid) (name = "live-three") (default_rtt_ms = 100) (levels = (heavy_wan hlot)) )
            ( &(type = subjob) (label = "a") (count = 1) (wan_group = "a") (site = "a") )
            ( &(type = subjob) (label = "b") (count = 1) (wan_group = "b") (site = "b") )
            ( &(type = subjob) (label = "c") (count = 1) (wan_group = "c") (site = "c") )
            ( &(type = link) (between = "a" "b") (rtt_ms = 20) )
            ( &(type = link) (between = "b" "c") (rtt_ms = 20) )
            ( &(type = link) (between = "a" "c") (rtt_ms = 30) )
            """;
    private static final JobId JOB = JobId.of("live-plans");
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    /** Probes every 200 ms; a slowed link's probe (100 ms RTT) must not time out. */
    private static final LivePlanSettings FAST = new LivePlanSettings(
            ProbeSettings.around(ScheduleSettings.DEFAULTS.withLatencyPeriod(Duration.ofMillis(200)), ForecastSettings.DEFAULTS)
                    .withProbeTimeout(Duration.ofMillis(500)),
            new LeaderSettings(ReplanPolicy.DEFAULT, Duration.ofMillis(300)));

    private final SiteLinkDelays wan = new SiteLinkDelays();

    @Test
    void everyMemberAdoptsTheLeadersNewPlanAtTheSwitchPointAndBroadcastsAlongIt() throws Exception {
        GridModel grid = GridConfigs.parse(LEVEL_FILE, "live-three.rsl").orElseThrow();
        wan.set("a", "b", 10);
        wan.set("b", "c", 10);
        wan.set("a", "c", 15);
        try (TestingServer zooKeeper = new TestingServer(true)) {
            List<CanopySession> sessions = join(grid, zooKeeper.getConnectString());
            try {
                assertThat(sessions).extracting(CanopySession::rank).containsExactly(0, 1, 2);

                assertThat(adoptUntilEpoch(sessions, 1)).isEqualTo(1);
                assertBroadcastRunsOnEpoch(sessions, 1);
                assertThat(broadcastSends()).as("epoch 1: root a sends to c over the direct 30 ms link")
                        .contains("a->c").doesNotContain("b->c");

                wan.set("a", "c", 50);
                assertThat(adoptUntilEpoch(sessions, 2)).isEqualTo(2);
                assertThat(publishedPlan(zooKeeper.getConnectString(), 2).reason())
                        .as("the published reason names the re-plan and the link that moved")
                        .contains("re-plan").contains("p0~p2");
                assertBroadcastRunsOnEpoch(sessions, 2);
                assertThat(broadcastSends()).as("epoch 2: the slowed a~c link is avoided, b relays to c")
                        .containsExactlyInAnyOrder("a->b", "b->c");
            } finally {
                sessions.forEach(CanopySession::leave);
            }
        }
    }

    private List<CanopySession> join(GridModel grid, String connectString) {
        List<Future<CanopySession>> joining = new ArrayList<>();
        for (int process = 0; process < grid.processCount(); process++) {
            JoinOptions options = new JoinOptions(JOB, process, grid, connectString, TransportStack.none())
                    .withLivePlans(FAST);
            joining.add(Canopy.joinAsync(Vertx.vertx(),
                    options.withLayers(wan.layerAt(options.placement().coordinates().site()))));
        }
        List<CanopySession> sessions = new ArrayList<>();
        for (Future<CanopySession> session : joining) {
            sessions.add(await(session));
        }
        sessions.sort((x, y) -> Integer.compare(x.rank(), y.rank()));
        return sessions;
    }

    /**
     * Calls the switch point on every member, as an application would between iterations, until the members
     * agree on {@code epoch}. Every round must give all members the same epoch.
     */
    private static long adoptUntilEpoch(List<CanopySession> sessions, long epoch) {
        long end = System.nanoTime() + DEADLINE.toNanos();
        List<Long> agreed = List.of();
        while (System.nanoTime() < end) {
            List<Future<Collectives>> switching = sessions.stream().map(CanopySession::adoptNewestPlanAsync).toList();
            agreed = switching.stream().map(LivePlansSessionTest::await).map(c -> c.plan().epoch()).toList();
            assertThat(agreed).as("every member leaves the switch point on the same epoch").containsOnly(agreed.get(0));
            if (agreed.get(0) == epoch) {
                return epoch;
            }
        }
        throw new AssertionError("members did not adopt plan epoch " + epoch + " within " + DEADLINE.toSeconds()
                + " s; the last switch point agreed on " + agreed);
    }

    private void assertBroadcastRunsOnEpoch(List<CanopySession> sessions, long epoch) {
        wan.forgetSent();
        String text = "bcast on epoch " + epoch;
        List<Future<Buffer>> received = sessions.stream()
                .map(s -> s.collectives().bcast(s.rank() == 0 ? Buffer.buffer(text) : null, 0)).toList();
        assertThat(received).allSatisfy(bcast -> assertThat(await(bcast).toString()).isEqualTo(text));
        assertThat(wan.sentCollectives()).filteredOn(sent -> sent.header().operation() == Operation.BCAST)
                .isNotEmpty()
                .allSatisfy(sent -> assertThat(sent.header().epoch()).as("epoch in the frame header").isEqualTo(epoch));
    }

    /** The site pairs the last broadcast's frames crossed, e.g. {@code a->c}. */
    private List<String> broadcastSends() {
        return wan.sentCollectives().stream().filter(sent -> sent.header().operation() == Operation.BCAST)
                .map(sent -> sent.fromSite() + "->" + sent.toSite()).distinct().toList();
    }

    private static PublishedPlan publishedPlan(String connectString, long epoch) {
        Vertx vertx = Vertx.vertx();
        CuratorFramework client = CuratorFrameworkFactory.newClient(connectString, new RetryOneTime(100));
        client.start();
        try {
            return await(new PlanStore(vertx.getOrCreateContext(), client, JOB).read(epoch));
        } finally {
            client.close();
            await(vertx.close());
        }
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("future failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("future not complete within " + DEADLINE.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
