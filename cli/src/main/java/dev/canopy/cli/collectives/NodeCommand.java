package dev.canopy.cli.collectives;

import dev.canopy.cli.LevelFiles;
import dev.canopy.cli.TlsOptionsMixin;
import dev.canopy.cli.dashboard.CommandDashboard;
import dev.canopy.cli.dashboard.DashboardMixin;
import dev.canopy.cli.launch.ProgramArgumentsFile;
import dev.canopy.cli.probe.HumanDuration;
import dev.canopy.dashboard.DashboardOptions;
import dev.canopy.dashboard.failure.FailureVerdicts;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.collectives.run.FatalErrors;
import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.collectives.run.LauncherEnvironment;
import dev.canopy.collectives.run.LauncherWatch;
import dev.canopy.collectives.run.LeaveOnShutdown;
import dev.canopy.collectives.run.LivePlanSettings;
import dev.canopy.collectives.run.ProgramMain;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.NodeLogger;
import dev.canopy.core.node.TransportStack;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.gridconfig.model.GridModel;
import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code canopy node}: runs one process of a job in this JVM, e.g. on a real host of the grid: it
 * joins through the given ZooKeeper as process {@code --process} of the level file and runs the
 * program. Start one per process of the file; they meet at the start barrier. The process listens
 * on {@code --host} (loopback by default) and tells the others, through ZooKeeper, to reach it there,
 * or at {@code --advertise} when {@code --host} binds every interface. Without {@code --process} the
 * index is the rank its launcher gives ({@code mpirun}, {@code srun}: {@link LauncherEnvironment}). With
 * {@code --zk embedded} the job needs no ZooKeeper of its own: process 0 runs one ({@link JobZooKeeper}). On SIGTERM
 * (or SIGINT) it leaves the job cleanly and exits with status 143 (130) ({@link LeaveOnShutdown}).
 */
@Command(name = "node", mixinStandardHelpOptions = true,
        description = "Run one process of a job in this JVM (one per process of the level file).")
public final class NodeCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(NodeCommand.class);
    /** The warm-up's outcome has a logger of its own, so a bench can show it alone (CANOPY_WARM_LOG=INFO). */
    private static final Logger WARM_LOG = LoggerFactory.getLogger(WanWarmUp.class);

    @Spec
    private CommandSpec spec;

    @Option(names = "--config", required = true, description = "The level file (RSL).")
    private Path config;

    @Option(names = "--process", description = "This process's index in the level file (0, 1, ...); default: the rank"
            + " its launcher gives (mpirun, srun: OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK, MV2_COMM_WORLD_RANK or SLURM_PROCID).")
    private Integer process;

    @Option(names = "--zk", required = true, description = "ZooKeeper connect string host:port,..., or 'embedded':"
            + " CANOPY_ZK from the environment if set, else process 0 runs a ZooKeeper and publishes it in --zk-file.")
    private String zooKeeper;

    @Option(names = "--zk-file", paramLabel = "PATH", description = "With --zk embedded: where process 0 publishes its"
            + " ZooKeeper's address and the others read it; a path every host sees (shared file system).")
    private Path zooKeeperFile;

    @Option(names = "--zk-wait", paramLabel = "TIME", defaultValue = "60s", converter = HumanDuration.class,
            description = "With --zk embedded: how long the other processes wait for --zk-file (default: ${DEFAULT-VALUE}).")
    private Duration zooKeeperWait;

    @Option(names = "--job", required = true, description = "The job name, the same on every process.")
    private String job;

    @Option(names = "--class", required = true, description = "The program: a CanopyProgram, or a class with main.")
    private String programClass;

    @Option(names = "--classpath", description = "Where the program's classes are (directories and jars).")
    private String classpath;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = NodeAddresses.DEFAULT_HOST,
            description = "The address to listen on and to advertise to the other processes"
                    + " (default: ${DEFAULT-VALUE}); 0.0.0.0 listens on every interface and needs --advertise.")
    private String host;

    @Option(names = "--advertise", paramLabel = "ADDRESS",
            description = "The address the other processes reach this one at, when --host is 0.0.0.0.")
    private String advertise;

    @Option(names = "--secret-file", required = true, paramLabel = "FILE", description = "The job secret, the same"
            + " file content on every process: 64 hex digits, readable by its owner only"
            + " (openssl rand -hex 32 > job.key; chmod 600 job.key).")
    private Path secretFile;

    @Option(names = "--live-plans", description = "Probe the network and follow the plan leader's live plans"
            + " (the same on every process); default: plans from the level file only.")
    private boolean livePlans;

    @Option(names = "--warm-wan", paramLabel = "off|auto|BYTES", defaultValue = "auto",
            converter = WarmWanSetting.Converter.class, description = "At the start, send one bulk flight over each"
            + " direction of every WAN connection the job's collective trees use, in the background, so that they"
            + " carry large messages at speed from the first (docs/transport.md). auto: twice each link's"
            + " bandwidth-delay product (256 KiB to 4 MiB), not when every process is on loopback; BYTES: that many"
            + " per direction; off: none. The same on every process (default: ${DEFAULT-VALUE}).")
    private WarmWanSetting warmWan;

    @Mixin
    private TlsOptionsMixin tls;

    @Mixin
    private DashboardMixin dashboard;

    @Mixin
    private ZooKeeperTlsOption zooKeeperTls;

    @Parameters(description = "Arguments for a program with main.")
    private List<String> arguments = new ArrayList<>();

    /** How canopy launch --hostfile's agent passes them: in a UTF-8 file, whatever the ssh session's locale. */
    @Option(names = "--arguments-file", hidden = true, paramLabel = "FILE",
            description = "The program's arguments as a JSON array of strings (UTF-8), instead of after --.")
    private Path argumentsFile;

    @Override
    public Integer call() throws Exception {
        // Started by canopy launch --hostfile's agent: end with it, however it ends.
        LauncherWatch.startIfLaunched(System.getenv(), System.in);
        Optional<GridModel> grid = LevelFiles.load(config, "node", spec.commandLine().getErr());
        if (grid.isEmpty()) {
            return 2;
        }
        OptionalInt index = processIndex(grid.get());
        if (index.isEmpty()) {
            return 2;
        }
        if (argumentsFile != null) {
            try {
                if (!arguments.isEmpty()) {
                    throw new IllegalArgumentException("give the program's arguments after -- or in --arguments-file,"
                            + " not both");
                }
                arguments = ProgramArgumentsFile.read(argumentsFile);
            } catch (IllegalArgumentException e) {
                spec.commandLine().getErr().println("canopy node: " + e.getMessage());
                return 2;
            }
        }
        NodeAddresses.Checked addresses = NodeAddresses.ofThisMachine().check(host, Optional.ofNullable(advertise));
        if (addresses instanceof NodeAddresses.Refused refused) {
            spec.commandLine().getErr().println("canopy node: " + refused.message());
            return 2;
        }
        NodeAddresses.Usable usable = (NodeAddresses.Usable) addresses;
        JobSecret secret;
        Optional<DashboardOptions> dashboardOptions;
        try {
            dashboardOptions = dashboard.options();
            secret = JobSecret.fromFile(secretFile);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("canopy node: " + e.getMessage());
            return 2;
        }
        TransportOptions transport;
        try {
            transport = tls.applyTo(TransportOptions.defaults().withHost(usable.bindHost(), usable.advertisedHost()),
                    index.getAsInt());
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("canopy node: " + e.getMessage());
            return 2;
        }
        JobZooKeeper jobZooKeeper;
        try {
            jobZooKeeper = JobZooKeeper.open(new JobZooKeeper.Request(zooKeeper, Optional.ofNullable(zooKeeperFile),
                    zooKeeperWait, System.getenv(), index.getAsInt(), usable.bindHost(), usable.advertisedHost(),
                    JobId.of(job), secret));
        } catch (IllegalArgumentException | IllegalStateException e) {
            spec.commandLine().getErr().println("canopy node: " + e.getMessage());
            return 2;
        }
        try (jobZooKeeper) {
            return run(grid.get(), index.getAsInt(), transport, secret, dashboardOptions, jobZooKeeper.connectString());
        }
    }

    /** Starts the WAN warm-up in the background (the program does not wait for it) and logs how it went. */
    private void warmWan(CanopySession session) {
        Optional<String> declined = WanWarmUp.declined(warmWan, session.world().members());
        if (declined.isPresent()) {
            WARM_LOG.info("no WAN warm-up: {}", declined.get());
            return;
        }
        WanWarmUp.start(session.world(), session.collectives().plan(), session.grid(), warmWan).onSuccess(warmed -> {
            if (warmed.problems().isEmpty()) {
                WARM_LOG.info("warmed {} WAN connection directions out ({} bytes) and took {} in ({} bytes) in {} ms",
                        warmed.sent().size(), warmed.bytesSent(), warmed.received().size(), warmed.bytesReceived(),
                        warmed.millis());
            } else {
                WARM_LOG.warn("WAN warm-up incomplete after {} ms ({} directions out, {} in; the job goes on): {}",
                        warmed.millis(), warmed.sent().size(), warmed.received().size(),
                        String.join("; ", warmed.problems()));
            }
        });
    }

    /** Joins through {@code connectString} and runs the program; returns its exit status. */
    private int run(GridModel grid, int index, TransportOptions transport, JobSecret secret,
            Optional<DashboardOptions> dashboardOptions, String connectString) throws Exception {
        JoinOptions configured = new JoinOptions(JobId.of(job), index, grid, connectString, TransportStack.none(), secret)
                .withTransport(transport);
        JoinOptions options = zooKeeperTls.applyTo(livePlans ? configured.withLivePlans(LivePlanSettings.DEFAULTS) : configured);
        FatalErrors.install();
        LeaveOnShutdown.install();
        Optional<CommandDashboard> served = dashboardOptions.map(given -> CommandDashboard.start(given, connectString,
                zooKeeperTls.tls(), JobId.of(job), Optional.of(secret), grid, Optional.empty(), spec.commandLine().getOut()));
        try (URLClassLoader loader = new URLClassLoader(urls(), NodeCommand.class.getClassLoader())) {
            // The node's failure detector tells a crash from a leave: its verdicts make members failed on the dashboard.
            return ProgramMain.run(programClass, loader, arguments.toArray(String[]::new), () -> options, session -> {
                served.ifPresent(shown -> FailureVerdicts.follow(session.node(), shown.dashboard().state()));
                warmWan(session);
            });
        } finally {
            served.ifPresent(CommandDashboard::close);
        }
    }

    /** {@code --process}, else the launcher's rank ({@link LauncherEnvironment}); empty after saying why neither works. */
    private OptionalInt processIndex(GridModel grid) {
        if (process != null) {
            return OptionalInt.of(process);
        }
        LauncherEnvironment.Lookup lookup = LauncherEnvironment.lookup(System.getenv(), grid.processCount(), config.toString());
        if (lookup instanceof LauncherEnvironment.Found found) {
            // Labelled as every node's log line is ([site/host#?]: no rank before the job has started).
            new NodeLogger(LOG, NodeLogger.label(grid.processes().get(found.index()).coordinates(), OptionalInt.empty()))
                    .info("process {} of {}: {}", found.index(), config, found.describe());
            return OptionalInt.of(found.index());
        }
        String why = lookup instanceof LauncherEnvironment.Invalid invalid ? invalid.message()
                : "no --process, and no launcher variable (" + String.join(", ", LauncherEnvironment.RANK_VARIABLES)
                        + ") says which process this is: give --process N, or start canopy node under mpirun or srun";
        spec.commandLine().getErr().println("canopy node: " + why);
        return OptionalInt.empty();
    }

    private URL[] urls() throws Exception {
        List<URL> urls = new ArrayList<>();
        if (classpath != null) {
            for (String entry : classpath.split(File.pathSeparator)) {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        return urls.toArray(URL[]::new);
    }
}
