package dev.canopy.cli.collectives;

import dev.canopy.cli.LevelFiles;
import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.calibration.Calibration;
import dev.canopy.collectives.internal.calibration.SegmentationStore;
import dev.canopy.collectives.internal.segmentation.SegmentationThresholds;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code canopy calibrate}: measures native (flat) scatter and gather time against message size on
 * the level file's grid (run in this JVM, WAN emulated), detects the scatter leap S and the gather
 * escalation range [M1, M2] (segmentation.md), stores them with the grid's configuration in
 * ZooKeeper ({@code --zk}) and prints the curves, before and, when thresholds were found, after
 * applying them. Only thresholds that made their operation faster are kept ("thresholds"; what was
 * detected is under "detected"). Storing needs the deployment's secret ({@code --secret-file}): the znodes
 * belong to its ZooKeeper credentials and the content carries its MAC, so only jobs run with the same secret
 * use the thresholds and nobody without it can change them ({@link SegmentationStore}). The LogGP parameters
 * are measured on the same grid and stored beside them, sealed alike ({@link LogGpReport}).
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = "Measure scatter/gather against message size, detect S, M1, M2 and store them in ZooKeeper.")
public final class CalibrateCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--config", required = true, description = "The level file (RSL).")
    private Path config;

    @Option(names = "--zk", description = "ZooKeeper to store the thresholds in; without it they are only printed.")
    private String zooKeeper;

    @Option(names = "--secret-file", paramLabel = "FILE", description = "With --zk: the secret of the deployment"
            + " (64 hex digits, mode 600); only holders of it can change the stored thresholds, and only jobs run with"
            + " the same --secret-file use them.")
    private Path secretFile;

    @Mixin
    private ZooKeeperTlsOption zooKeeperTls;

    @Option(names = "--sizes", split = ",", defaultValue = "1024,2048,4096,8192,16384,32768,65536,131072,262144",
            description = "Message sizes per process, in bytes.")
    private List<Integer> sizes;

    @Option(names = "--repetitions", defaultValue = "10", description = "Samples per size (default ${DEFAULT-VALUE}).")
    private int repetitions;

    @Option(names = "--json", description = "Print JSON instead of tables.")
    private boolean json;

    @Option(names = "--zk-timeout", defaultValue = "15", paramLabel = "SECONDS",
            description = "How long to wait for ZooKeeper before measuring anything (default ${DEFAULT-VALUE} s).")
    private double zooKeeperTimeoutSeconds;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        if (repetitions < 2 || sizes.size() < 3 || sizes.stream().anyMatch(size -> size < 1 || size > 16 << 20)) {
            err.println("canopy calibrate: give at least 3 sizes of 1 B to 16 MiB and --repetitions of 2 or more");
            return 2;
        }
        if (!(zooKeeperTimeoutSeconds > 0 && zooKeeperTimeoutSeconds <= 3600)) {
            err.println("canopy calibrate: --zk-timeout must be more than 0 and at most 3600 seconds, got " + zooKeeperTimeoutSeconds);
            return 2;
        }
        Optional<GridModel> loaded = LevelFiles.load(config, "calibrate", err);
        if (loaded.isEmpty()) {
            return 2;
        }
        GridModel grid = loaded.get();
        if (zooKeeper == null) {
            print(measure(grid));
            return 0;
        }
        if (secretFile == null) {
            err.println("canopy calibrate: --zk needs --secret-file FILE, the secret of the jobs that will use the"
                    + " thresholds (openssl rand -hex 32 > job.key; chmod 600 job.key): only its holders can change them");
            return 2;
        }
        JobSecret secret = JobSecret.fromFile(secretFile);
        Vertx vertx = Vertx.vertx();
        try {
            // connect first: a ZooKeeper that is down should not cost the user a whole calibration
            ZooKeeperSession session = connect(vertx, secret);
            JsonObject report = measure(grid);
            Blocking.await(new SegmentationStore(vertx, session.client(), secret).save(grid.name(), report)
                    .compose(saved -> LogGpReport.save(vertx, session.client(), secret, grid.name(), report))
                    .eventually(session::close));
            print(report);
            return 0;
        } finally {
            Blocking.await(vertx.close());
        }
    }

    private JsonObject measure(GridModel grid) {
        try (EmulatedGrid emulated = EmulatedGrid.start(grid, "calibrate-" + ProcessHandle.current().pid(), 1)) {
            List<Collectives> nativeOps = emulated.world().stream()
                    .map(member -> new Collectives(member, ConfiguredPlans.of(member.members(), grid,
                            LevelAlgorithms.everywhere(TreeAlgorithm.FLAT)), CollectiveSettings.defaults()))
                    .toList();
            Calibration.Result before = Calibration.run(nativeOps, 0, sizes, repetitions);
            Optional<Calibration.Result> after = Optional.empty();
            if (!before.thresholds().equals(SegmentationThresholds.NONE)) {
                CollectiveSettings applied = CollectiveSettings.defaults().withThresholds(before.thresholds());
                after = Optional.of(Calibration.run(nativeOps.stream().map(c -> c.withSettings(applied)).toList(), 0,
                        sizes, repetitions));
            }
            JsonObject report = CalibrationReport.of(grid.name(), nativeOps.size(), before, after);
            LogGpReport.measureInto(report, emulated.world(), repetitions);
            return report;
        }
    }

    /** The session, or an {@link IllegalStateException} that says how long this command actually waited. */
    private ZooKeeperSession connect(Vertx vertx, JobSecret secret) {
        Optional<ZooKeeperTls> tls = zooKeeperTls.tls();
        long start = System.nanoTime();
        try {
            return Blocking.await(ZooKeeperSession.open(vertx, zooKeeper, NodeOptions.DEFAULT_SESSION_TIMEOUT,
                    Duration.ofMillis(Math.round(zooKeeperTimeoutSeconds * 1000)),
                    Optional.of(ZooKeeperCredentials.of(secret)), tls));
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IllegalStateException(String.format(Locale.ROOT, "%s; waited %.1f s for ZooKeeper, measured nothing",
                    e.getMessage(), (System.nanoTime() - start) / 1e9), e);
        }
    }

    private void print(JsonObject report) {
        PrintWriter out = spec.commandLine().getOut();
        out.println(json ? report.encodePrettily() : CalibrationTable.format(report, zooKeeper) + "\n"
                + LogGpReport.format(report, zooKeeper));
        out.flush();
    }
}
