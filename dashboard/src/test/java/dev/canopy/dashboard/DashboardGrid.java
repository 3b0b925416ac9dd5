package dev.canopy.dashboard;

import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.node.JobId;
import dev.canopy.core.testing.Await;
import dev.canopy.dashboard.failure.FailureVerdicts;
import dev.canopy.dashboard.metrics.DashboardMetrics;
import dev.canopy.dashboard.metrics.VertxMeters;
import dev.canopy.dashboard.record.CollectiveRecorder;
import dev.canopy.dashboard.record.RecordingObserver;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Optional;

/**
 * A real in-process grid for the dashboard's tests: every process of a small level file as a node (embedded
 * ZooKeeper, TCP on 127.0.0.1, the file's WAN emulated), each member's WORLD collectives recorded, and a
 * {@link JobDashboard} reading the job from ZooKeeper with the job's credentials, on any free port (on a Vert.x
 * reporting to the dashboard's registry), and showing the nodes' failure detectors' verdicts.
 */
final class DashboardGrid implements AutoCloseable {

    /** Three sites in two wide-area groups, two processes each. */
    static final String THREE_SITES = """
            +
            ( &(type = grid) (name = "dash-three") )
            ( &(type = subjob) (label = "north") (count = 2) (wan_group = "west") (site = "north") )
            ( &(type = subjob) (label = "south") (count = 2) (wan_group = "west") (site = "south") )
            ( &(type = subjob) (label = "east") (count = 2) (wan_group = "far") (site = "east") )
            ( &(type = link) (between = "north" "south") (rtt_ms = 12) )
            ( &(type = link) (between = "north" "east") (rtt_ms = 60) )
            ( &(type = link) (between = "south" "east") (rtt_ms = 70) )
            """;

    final GridModel model;
    final EmulatedGrid grid;
    final CollectiveRecorder recorder = new CollectiveRecorder();
    final List<Collectives> collectives;
    final Vertx vertx;
    final JobDashboard dashboard;

    DashboardGrid(String job) {
        model = GridConfigs.parse(THREE_SITES, "dash-three.rsl").orElseThrow();
        grid = EmulatedGrid.start(model, job, 7);
        collectives = grid.world().stream().map(this::recorded).toList();
        PrometheusMeterRegistry registry = DashboardMetrics.newRegistry();
        vertx = VertxMeters.create(registry);
        dashboard = Await.result(JobDashboard.start(vertx, DashboardOptions.onLoopback(0), grid.zooKeeperConnectString(),
                Optional.empty(), JobId.of(job), Optional.of(grid.secret()), model, Optional.of(recorder), registry));
        grid.nodes().forEach(node -> FailureVerdicts.follow(node, dashboard.state()));
    }

    private Collectives recorded(Communicator world) {
        return RecordingObserver.observe(new Collectives(world, ConfiguredPlans.of(world.members(), model),
                CollectiveSettings.defaults()), recorder);
    }

    String url(String path) {
        return "http://127.0.0.1:" + dashboard.port() + path;
    }

    @Override
    public void close() {
        Await.result(dashboard.close());
        Await.result(vertx.close());
        grid.close();
    }
}
