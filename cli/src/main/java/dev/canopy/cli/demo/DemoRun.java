package dev.canopy.cli.demo;

import dev.canopy.cli.FutureWait;
import dev.canopy.cli.dashboard.UntilStopped;
import dev.canopy.collectives.internal.loop.OwnEventLoop;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.emulation.LinkProfile;
import dev.canopy.core.internal.emulation.WanEmulation;
import dev.canopy.core.internal.emulation.WanEmulationLayer;
import dev.canopy.core.internal.emulation.WanEmulator;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.HeartbeatSettings;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.security.JobSecret;
import dev.canopy.dashboard.DashboardOptions;
import dev.canopy.dashboard.failure.FailureVerdicts;
import dev.canopy.dashboard.metrics.DashboardMetrics;
import dev.canopy.dashboard.metrics.VertxMeters;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One demo run, driven from the command's thread (never an event loop): ZooKeeper (embedded unless an
 * ensemble is given), one node per grid coordinate in this JVM on loopback, join, rank table, ping
 * matrix, clean shutdown.
 */
final class DemoRun {

    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(120);
    /**
     * The nodes share this JVM, so none can die alone: a node that closes says goodbye, and a JVM that dies takes them
     * all. Silence here only means load (32 nodes and the WAN emulator's one thread on a busy 2-core machine missed the
     * default 5 s, and the demo failed a healthy rank), so the timeout is long and heartbeats are rarer.
     */
    private static final HeartbeatSettings IN_ONE_JVM = new HeartbeatSettings(Duration.ofSeconds(1),
            Duration.ofSeconds(30), HeartbeatSettings.DEFAULT_JITTER);

    private final DemoGrid grid;
    private final PrintWriter out;
    /** {@code canopy demo --quick}: no tree race, no multicast race, no re-plan. */
    private final boolean quick;

    DemoRun(DemoGrid grid, PrintWriter out, boolean quick) {
        this.grid = grid;
        this.out = out;
        this.quick = quick;
    }

    /** The dashboard the demo serves: the level file, where it listens, how long the demo stays up afterwards. */
    record Dashboard(GridModel grid, DashboardOptions options, Duration duration) {
    }

    void run(JobId job, Optional<String> ensemble, int pings, long seed, Dashboard dashboard) throws InterruptedException {
        EmbeddedZooKeeper embedded = ensemble.isEmpty() ? EmbeddedZooKeeper.start() : null;
        String connectString = embedded != null ? embedded.connectString() : ensemble.orElseThrow();
        out.printf(Locale.ROOT, "ZooKeeper: %s %s%n", embedded != null ? "embedded, listening on" : "ensemble", connectString);
        out.printf(Locale.ROOT, "grid %s: %d processes; WAN emulation: %s (seed %d)%n", grid.name(), grid.nodes().size(),
                describe(grid.wan()), seed);
        // The nodes' event loops, pools and sockets report to the registry the dashboard scrapes.
        PrometheusMeterRegistry meters = DashboardMetrics.newRegistry();
        Vertx vertx = VertxMeters.create(meters);
        JobSecret secret = JobSecret.generate();
        WanEmulator wan = WanEmulator.start(grid.wan());
        List<CanopyNode> nodes = new ArrayList<>();
        // Ctrl-C ends the wait of --duration; the shutdown then waits for the clean-up below.
        UntilStopped running = new UntilStopped();
        try {
            long started = System.nanoTime();
            for (int i = 0; i < grid.nodes().size(); i++) {
                Coordinates coordinates = grid.nodes().get(i);
                long nodeSeed = seed + i;
                NodeOptions options = NodeOptions.of(job, NodeId.of("node" + i), coordinates, grid.nodes().size(),
                        connectString, secret).withHeartbeat(IN_ONE_JVM)
                        .withLayers(below -> new WanEmulationLayer(below, wan, coordinates, nodeSeed));
                // Each node on an event loop of its own, as in separate processes.
                nodes.add(await(OwnEventLoop.startNode(vertx, options), "start node" + i));
            }
            List<Future<Communicator>> joins = nodes.stream().map(CanopyNode::join).toList();
            List<Communicator> worlds = new ArrayList<>();
            for (Future<Communicator> join : joins) {
                worlds.add(await(join, "join job " + job));
            }
            worlds.sort(Comparator.comparingInt(Communicator::rank));
            out.printf(Locale.ROOT, "%d nodes started and joined in %d ms%n%n", nodes.size(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));

            new DemoReport(out).rankTable(job.name(), worlds.get(0).members());
            try (DemoDashboard served = DemoDashboard.start(dashboard.options(), connectString, job, secret,
                    dashboard.grid(), worlds, meters, out)) {
                nodes.forEach(node -> FailureVerdicts.follow(node, served.state()));
                worlds.forEach(PingMatrix::answerPings);
                // One unmeasured round first: it opens the TCP connections and warms the code paths.
                await(PingMatrix.measure(worlds, 1), "warm up");
                double[][] rtt = await(PingMatrix.measure(worlds, pings), "ping every pair");
                new DemoReport(out).sitePairs(worlds.get(0).members(), rtt, grid.wan(), pings);
                int pairs = nodes.size() * (nodes.size() - 1);
                out.printf(Locale.ROOT, "%d ordered pairs exchanged %d pings and %d pongs%n%n", pairs, pairs * pings,
                        pairs * pings);
                served.measured(worlds.get(0).members(), rtt);
                if (!quick && DemoTreeRace.worthRunning(grid.model())) {
                    new DemoTreeRace(grid.model(), out, step -> await(step, "bcast by each heavy-WAN tree")).run(worlds);
                }
                if (!quick && DemoBroadcasts.asked(grid.model())) {
                    new DemoBroadcasts(grid.model(), out, step -> await(step, "bcast by multicast and by the trees"),
                            served.state())
                            .run(worlds);
                }
                served.showcase(vertx);
                if (!quick && dashboard.duration().toSeconds() < DemoDashboard.REPLAN_MIN_SECONDS
                        && DemoTreeRace.worthRunning(grid.model())) {
                    served.replanOnMeasurements(nodeOfRankZero(nodes, worlds.get(0)), worlds, rtt, wan, pings);
                }
                served.keepRunning(vertx, dashboard.duration(), running, nodes, wan, worlds);
            }
        } finally {
            for (CanopyNode node : nodes) {
                await(node.close(), "close " + node.id());
            }
            await(vertx.close(), "stop Vert.x");
            wan.close();
            if (embedded != null) {
                embedded.close();
            }
            running.close();
        }
        out.printf(Locale.ROOT, "all nodes left the job and closed%n");
        out.flush();
    }

    private static CanopyNode nodeOfRankZero(List<CanopyNode> nodes, Communicator world) {
        return nodes.stream().filter(node -> node.id().equals(world.member(0).id())).findFirst()
                .orElseThrow(() -> new IllegalStateException("no node for rank 0"));
    }

    /** E.g. {@code 56 directed site links, 2.4 to 380 ms RTT}. */
    private static String describe(WanEmulation wan) {
        DoubleSummaryStatistics rtt = wan.links().values().stream().mapToDouble(LinkProfile::rttMs).summaryStatistics();
        return rtt.getCount() == 0
                ? String.format(Locale.ROOT, "one site, nothing to emulate")
                : String.format(Locale.ROOT, "%d directed site links, %.1f to %.1f ms RTT", rtt.getCount(), rtt.getMin(), rtt.getMax());
    }

    private static <T> T await(Future<T> future, String step) {
        return FutureWait.await(future, STEP_TIMEOUT, "demo step '" + step + "'");
    }
}
