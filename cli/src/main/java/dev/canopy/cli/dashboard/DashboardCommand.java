package dev.canopy.cli.dashboard;

import dev.canopy.cli.FutureWait;
import dev.canopy.cli.LevelFiles;
import dev.canopy.cli.collectives.ZooKeeperTlsOption;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.dashboard.DashboardOptions;
import dev.canopy.dashboard.JobDashboard;
import dev.canopy.dashboard.metrics.DashboardMetrics;
import dev.canopy.dashboard.metrics.VertxMeters;
import dev.canopy.gridconfig.model.GridModel;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code canopy dashboard}: the web dashboard of a running job, from outside it: membership, plans, re-plans,
 * forecasts and the collectives' timings the members publish while it watches, read from ZooKeeper with the job's
 * credentials (derived from its secret; a job's znodes are readable by its members only). Runs until Ctrl-C or
 * {@code --duration}.
 */
@Command(name = "dashboard", mixinStandardHelpOptions = true,
        description = {"Serve the web dashboard of a running job, read from ZooKeeper (read-only).",
            "Prints the URL as 'dashboard: http://HOST:PORT/' and runs until Ctrl-C or --duration."})
public final class DashboardCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--zk", required = true, paramLabel = "host:port,...", description = "The job's ZooKeeper ensemble.")
    private String zooKeeper;

    @Mixin
    private ZooKeeperTlsOption zooKeeperTls;

    @Option(names = "--job", required = true, description = "The job name.")
    private String job;

    @Option(names = "--secret-file", paramLabel = "FILE", description = "The job secret (as given to canopy node or"
            + " launch); without it only jobs with open znodes can be read, and no collectives are shown.")
    private Path secretFile;

    @Option(names = "--config", paramLabel = "FILE", description = "The job's level file, for the configured round trips"
            + " and the level algorithms (default: the bundled 8-site grid).")
    private Path config;

    @Option(names = "--port", defaultValue = "0", description = "The port (default ${DEFAULT-VALUE}: any free port).")
    private int port;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = DashboardOptions.LOOPBACK,
            description = "The address to listen on (default ${DEFAULT-VALUE}; 0.0.0.0 opens it to the network).")
    private String host;

    @Option(names = "--duration", paramLabel = "SECONDS", description = "Stop after this many seconds (default: at Ctrl-C).")
    private Long durationSeconds;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        DashboardOptions options;
        JobId jobId;
        Optional<JobSecret> secret;
        Optional<ZooKeeperTls> tls;
        try {
            options = new DashboardOptions(host, port);
            jobId = JobId.of(job);
            secret = secretFile == null ? Optional.empty() : Optional.of(JobSecret.fromFile(secretFile));
            tls = zooKeeperTls.tls();
            if (durationSeconds != null && durationSeconds <= 0) {
                throw new IllegalArgumentException("--duration must be positive, got " + durationSeconds);
            }
        } catch (IllegalArgumentException e) {
            err.println("canopy dashboard: " + e.getMessage());
            return 2;
        }
        Optional<GridModel> grid = LevelFiles.load(config, "dashboard", err);
        if (grid.isEmpty()) {
            return 2;
        }
        try (UntilStopped running = new UntilStopped()) {
            return serve(options, tls, jobId, secret, grid.get(), running);
        }
    }

    private int serve(DashboardOptions options, Optional<ZooKeeperTls> tls, JobId jobId, Optional<JobSecret> secret, GridModel grid, UntilStopped running)
            throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrometheusMeterRegistry registry = DashboardMetrics.newRegistry();
        Vertx vertx = VertxMeters.create(registry);
        try {
            JobDashboard dashboard;
            try {
                dashboard = FutureWait.await(JobDashboard.start(vertx, options, zooKeeper, tls, jobId, secret, grid,
                        Optional.empty(), registry), Duration.ofSeconds(30), "starting the dashboard");
            } catch (IllegalStateException e) {
                spec.commandLine().getErr().println("canopy dashboard: " + e.getMessage());
                return 1;
            }
            out.println("dashboard: " + dashboard.url());
            out.flush();
            running.await(durationSeconds == null ? null : Duration.ofSeconds(durationSeconds));
            FutureWait.await(dashboard.close(), Duration.ofSeconds(10), "closing the dashboard");
            return 0;
        } finally {
            FutureWait.await(vertx.close(), Duration.ofSeconds(10), "closing Vert.x");
        }
    }
}
