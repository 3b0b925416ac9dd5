package dev.canopy.cli.dashboard;

import dev.canopy.cli.FutureWait;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.dashboard.DashboardOptions;
import dev.canopy.dashboard.JobDashboard;
import dev.canopy.dashboard.metrics.DashboardMetrics;
import dev.canopy.dashboard.metrics.VertxMeters;
import dev.canopy.dashboard.record.CollectiveRecorder;
import dev.canopy.gridconfig.model.GridModel;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;

/**
 * The dashboard a command serves alongside the job it runs ({@code demo}, {@code launch}, {@code node}), on its
 * own Vert.x instance so that it outlives nothing of the job's. Blocking: call from the command's thread.
 */
public final class CommandDashboard implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Vertx vertx;
    private final JobDashboard dashboard;

    private CommandDashboard(Vertx vertx, JobDashboard dashboard) {
        this.vertx = vertx;
        this.dashboard = dashboard;
    }

    /**
     * Starts the dashboard of {@code job} and prints {@code dashboard: URL} on its own line of {@code out}.
     *
     * @throws IllegalStateException when it cannot listen or reach ZooKeeper, saying why
     */
    public static CommandDashboard start(DashboardOptions options, String zooKeeper, Optional<ZooKeeperTls> zooKeeperTls,
            JobId job, Optional<JobSecret> secret, GridModel grid, Optional<CollectiveRecorder> recorder, PrintWriter out) {
        PrometheusMeterRegistry registry = DashboardMetrics.newRegistry();
        return start(options, zooKeeper, zooKeeperTls, job, secret, grid, recorder, registry,
                VertxMeters.create(registry), out);
    }

    /**
     * As above, for a job whose Vert.x in this JVM reports to {@code registry} ({@link VertxMeters}): its figures are on
     * {@code /metrics}; the dashboard's own Vert.x is then not metered (one registry takes one metered instance).
     */
    public static CommandDashboard startWithMeters(DashboardOptions options, String zooKeeper, JobId job,
            Optional<JobSecret> secret, GridModel grid, Optional<CollectiveRecorder> recorder,
            PrometheusMeterRegistry registry, PrintWriter out) {
        return start(options, zooKeeper, Optional.empty(), job, secret, grid, recorder, registry, CanopyVertx.create(), out);
    }

    private static CommandDashboard start(DashboardOptions options, String zooKeeper, Optional<ZooKeeperTls> zooKeeperTls,
            JobId job, Optional<JobSecret> secret, GridModel grid, Optional<CollectiveRecorder> recorder,
            PrometheusMeterRegistry registry, Vertx vertx, PrintWriter out) {
        try {
            JobDashboard dashboard = await(JobDashboard.start(vertx, options, zooKeeper, zooKeeperTls, job, secret, grid,
                    recorder, registry));
            out.println("dashboard: " + dashboard.url());
            out.flush();
            return new CommandDashboard(vertx, dashboard);
        } catch (RuntimeException e) {
            vertx.close();
            throw e;
        }
    }

    public JobDashboard dashboard() {
        return dashboard;
    }

    @Override
    public void close() {
        try {
            await(dashboard.close());
        } finally {
            await(vertx.close());
        }
    }

    private static <T> T await(Future<T> future) {
        return FutureWait.await(future, TIMEOUT, "dashboard");
    }
}
