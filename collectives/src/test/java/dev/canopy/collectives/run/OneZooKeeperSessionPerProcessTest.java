package dev.canopy.collectives.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.internal.calibration.SegmentationStore;
import dev.canopy.collectives.internal.leader.LeaderSettings;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.TransportStack;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.probes.internal.forecast.ForecastSettings;
import dev.canopy.probes.internal.measure.ProbeSettings;
import dev.canopy.probes.internal.schedule.ScheduleSettings;
import dev.canopy.topology.internal.replan.ReplanPolicy;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A joined process holds one ZooKeeper session, whatever it does through ZooKeeper: membership and the start
 * barrier, the calibration reads at join, multicast group leases, and with live plans the probes' summaries,
 * the plan leader election and the plan cache. Three processes joined with all of it hold three connections of
 * the server, before and after a collective.
 */
@Timeout(120)
class OneZooKeeperSessionPerProcessTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String LEVEL_FILE = """
            +
            ( &(type = grid) (name = "sessions-three") (default_rtt_ms = 10) )
            ( &(type = subjob) (label = "a") (count = 1) (wan_group = "a") (site = "a") )
            ( &(type = subjob) (label = "b") (count = 1) (wan_group = "b") (site = "b") )
            ( &(type = subjob) (label = "c") (count = 1) (wan_group = "c") (site = "c") )
            """;
    private static final LivePlanSettings LIVE_PLANS = new LivePlanSettings(
            ProbeSettings.around(ScheduleSettings.DEFAULTS.withLatencyPeriod(Duration.ofMillis(200)), ForecastSettings.DEFAULTS),
            Duration.ofMillis(200),
            new LeaderSettings(ReplanPolicy.DEFAULT, Duration.ofMillis(300)));

    @Test
    void threeProcessesWithCalibrationAndLivePlansHoldThreeSessions() {
        GridModel grid = GridConfigs.parse(LEVEL_FILE, "sessions-three.rsl").orElseThrow();
        JobSecret secret = JobSecret.generate();
        Vertx vertx = Vertx.vertx();
        try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start()) {
            ZooKeeperSession calibrator = Await.result(ZooKeeperSession.open(vertx, zooKeeper.connectString(),
                    Duration.ofSeconds(4), WAIT, Optional.of(ZooKeeperCredentials.of(secret))), WAIT);
            SegmentationStore store = new SegmentationStore(vertx, calibrator.client(), secret);
            Await.result(store.save(grid.name(), new JsonObject().put("thresholds", new JsonObject().put("S", 65536))), WAIT);
            Await.result(calibrator.close(), WAIT);
            Await.until(WAIT, () -> zooKeeper.clientConnections() == 0,
                    () -> "the calibrator's connection to close; open: " + zooKeeper.clientConnections());

            List<CanopySession> sessions = join(grid, zooKeeper.connectString(), secret);
            try {
                assertThat(zooKeeper.clientConnections()).as("sessions after three joins").isEqualTo(3);
                List<Future<int[]>> sums = sessions.stream().map(s -> s.collectives().typed(ArrayType.INTS)
                        .allreduce(new int[] {s.rank() + 1}, BuiltInOp.SUM)).toList();
                for (Future<int[]> sum : sums) {
                    assertThat(Await.result(sum, WAIT)).containsExactly(6);
                }
                assertThat(zooKeeper.clientConnections()).as("sessions after an allreduce").isEqualTo(3);
            } finally {
                sessions.forEach(CanopySession::leave);
            }
            Await.until(WAIT, () -> zooKeeper.clientConnections() == 0,
                    () -> "every session to end with its process; open: " + zooKeeper.clientConnections());
        } finally {
            Await.result(vertx.close(), WAIT);
        }
    }

    private static List<CanopySession> join(GridModel grid, String connectString, JobSecret secret) {
        List<Future<CanopySession>> joining = new ArrayList<>();
        for (int process = 0; process < grid.processCount(); process++) {
            JoinOptions options = new JoinOptions(JobId.of("one-session"), process, grid, connectString,
                    TransportStack.none(), secret).withLivePlans(LIVE_PLANS);
            joining.add(Canopy.joinAsync(Vertx.vertx(), options));
        }
        List<CanopySession> sessions = new ArrayList<>();
        for (Future<CanopySession> session : joining) {
            sessions.add(Await.result(session, WAIT));
        }
        return sessions;
    }
}
