package dev.canopy.cli.collectives;

import dev.canopy.cli.TlsOptionsMixin;
import dev.canopy.cli.Verbosity;
import dev.canopy.cli.config.SiteRuleConverter;
import dev.canopy.cli.dashboard.CommandDashboard;
import dev.canopy.cli.dashboard.DashboardMixin;
import dev.canopy.cli.dashboard.ExitsOnDashboard;
import dev.canopy.cli.launch.LaunchProgram;
import dev.canopy.cli.launch.ProcessExitListener;
import dev.canopy.cli.launch.SshLaunch;
import dev.canopy.cli.launch.SshOptions;
import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.collectives.run.LauncherWatch;
import dev.canopy.collectives.run.ProgramMain;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.dashboard.DashboardOptions;
import dev.canopy.gridconfig.internal.hosts.SiteRule;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.processes.JvmCommand;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import java.io.File;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code canopy launch}: runs a program in one JVM per process of a level file on this machine, with
 * the file's WAN emulated between sites, all joining one job through ZooKeeper (embedded unless
 * {@code --zk} is given). With {@code --hostfile} (or {@code --remote}) the processes run on the file's real hosts
 * instead, started over ssh with no WAN emulated ({@link SshLaunch}). The arguments after {@code --} go to the
 * program's {@code main} in every process, as given (never through a shell). Each line of output
 * is prefixed with the process's rank; a process that fails is reported as it ends (rank, exit status, why);
 * the exit status is the worst of the processes'. The processes die with the launcher, however it dies
 * ({@code LauncherWatch}), and a fatal JVM error ends a process at once ({@code -XX:+ExitOnOutOfMemoryError},
 * {@code FatalErrors}). With {@code --zk}, whatever the job left in ZooKeeper is removed at the end ({@link JobSweep}).
 */
@Command(name = "launch", mixinStandardHelpOptions = true,
        description = "Run a program in one JVM per process of the level file on this machine, or on the hosts of a"
                + " hostfile (--hostfile) or level file (--remote) over ssh.")
public final class LaunchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--config", description = "The level file (RSL); or --hostfile.")
    private Path config;

    @Option(names = "--hostfile", paramLabel = "FILE", description = "Run on the hosts of this MPI hostfile over ssh"
            + " (Open MPI 'host slots=N' or Hydra 'host:N'), grouped into sites by --site-by; no WAN emulation.")
    private Path hostfile;

    @Option(names = "--site-by", paramLabel = "RULE", converter = SiteRuleConverter.class,
            description = "With --hostfile: how hosts group into sites (domain, prefix:REGEX, subnet:/N), as in canopy"
                    + " config from-hostfile.")
    private SiteRule siteRule;

    @Option(names = "--remote", description = "Run each process on its host of the level file, over ssh, with no WAN"
            + " emulation (as --hostfile does), instead of every process on this machine.")
    private boolean remote;

    @Mixin
    private SshOptions ssh;

    @Option(names = "--class", required = true, description = "The program: a CanopyProgram, or a class with main.")
    private String programClass;

    @Option(names = "--classpath", description = "Where the program's classes are, added to Canopy's own.")
    private String classpath;

    @Option(names = "--zk", description = "ZooKeeper connect string host:port,...; default (or 'embedded'): a server"
            + " in this launcher, on its address towards the hosts with --hostfile or --remote.")
    private String zooKeeper;

    @Option(names = "--job", description = "Job name; default: launch-<pid>.")
    private String job;

    @Option(names = "--live-plans", description = "Probe the network and follow the plan leader's live plans"
            + " (programs move to a new plan at CanopySession.adoptNewestPlan()); default: plans from the level file only.")
    private boolean livePlans;

    @Option(names = "--secret-file", paramLabel = "FILE", description = "The job secret (64 hex digits, mode 600);"
            + " default: a new one for this launch, in a temporary file deleted at the end.")
    private Path secretFile;

    @picocli.CommandLine.Mixin
    private DashboardMixin dashboard;

    @Mixin
    private ZooKeeperTlsOption zooKeeperTls;

    @Option(names = "--timeout", defaultValue = "600", description = "Seconds before the processes are killed (default ${DEFAULT-VALUE}).")
    private long timeoutSeconds;

    @Mixin
    private TlsOptionsMixin tls;

    @Parameters(paramLabel = "ARGS", description = "Arguments for a program with main, after --: each reaches every"
            + " process exactly as given, on this machine and over ssh (e.g. -- --size 8 'a b').")
    private List<String> arguments = new ArrayList<>();

    private LaunchTls tlsFiles;
    private LaunchGrid launchGrid;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Optional<LaunchGrid> loaded = LaunchGrid.load(config, hostfile, siteRule, remote, err);
        if (loaded.isEmpty()) {
            return 2;
        }
        launchGrid = loaded.get();
        GridModel grid = launchGrid.grid();
        if ("embedded".equals(zooKeeper)) {
            zooKeeper = null;
        }
        if (timeoutSeconds <= 0) {
            err.println("canopy launch: --timeout must be positive, got " + timeoutSeconds);
            return 2;
        }
        String jobName = job != null ? job : "launch-" + ProcessHandle.current().pid();
        try {
            JobId.of(jobName);
        } catch (IllegalArgumentException e) {
            err.println("canopy launch: --job: " + e.getMessage());
            return 2;
        }
        Optional<ZooKeeperTls> zooKeeperTlsFiles = zooKeeperTls.tls();
        String zooKeeperHost = "127.0.0.1";
        if (launchGrid.overSsh()) {
            try {
                SshLaunch.check(grid, ssh);
                if (zooKeeper == null) {
                    zooKeeperHost = SshLaunch.zooKeeperAddress(grid);
                    String address = zooKeeperHost;
                    zooKeeperTlsFiles.filter(ZooKeeperTls::hasServerKey)
                            .ifPresent(tls -> EmbeddedZooKeeperCertificate.requireAddress(tls, address));
                } else {
                    SshLaunch.checkZooKeeper(zooKeeper);
                }
            } catch (IllegalArgumentException e) {
                err.println("canopy launch: " + e.getMessage());
                return 2;
            }
        }
        LaunchSecret secret;
        Optional<DashboardOptions> dashboardOptions;
        try {
            dashboardOptions = dashboard.options();
            secret = LaunchSecret.of(Optional.ofNullable(secretFile));
        } catch (IllegalArgumentException e) {
            err.println("canopy launch: " + e.getMessage());
            return 2;
        }
        LaunchTls files;
        try {
            files = LaunchTls.of(tls, grid.processCount());
        } catch (IllegalArgumentException e) {
            err.println("canopy launch: " + e.getMessage());
            secret.close();
            return 2;
        }
        tlsFiles = files;
        try (secret; files) {
            if (zooKeeper != null) {
                try {
                    return runAll(grid, jobName, zooKeeper, secret, dashboardOptions);
                } finally {
                    JobSweep.sweep(zooKeeper, JobId.of(jobName), Optional.of(secret.zooKeeperCredentials()), zooKeeperTlsFiles, err);
                }
            }
            try (EmbeddedZooKeeper embedded = EmbeddedZooKeeper.start(zooKeeperHost, zooKeeperTlsFiles)) {
                return runAll(grid, jobName, embedded.connectString(), secret, dashboardOptions);
            }
        }
    }

    private int runAll(GridModel grid, String jobName, String connectString, LaunchSecret secret,
            Optional<DashboardOptions> dashboardOptions) throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        RankTable ranks = new RankTable(grid);
        Optional<CommandDashboard> served = dashboardOptions.map(options -> CommandDashboard.start(options, connectString,
                zooKeeperTls.tls(), JobId.of(jobName), Optional.of(secret.secret()), grid, Optional.empty(), out));
        ProcessExitListener exits = served.<ProcessExitListener>map(shown -> new ExitsOnDashboard(shown.dashboard(),
                RankTable::memberId)).orElse(ProcessExitListener.NONE);
        if (launchGrid.overSsh()) {
            try {
                LaunchProgram program = new LaunchProgram(programClass, Optional.ofNullable(classpath), arguments, livePlans);
                return SshLaunch.of(new SshLaunch.Job(grid, launchGrid.levelFile(), jobName, secret.hex(), connectString,
                        zooKeeperTls.tls(), program, tlsFiles::settings), ssh, out,
                        spec.commandLine().getErr()).run(Duration.ofSeconds(timeoutSeconds), ranks::rankOf, exits);
            } finally {
                served.ifPresent(CommandDashboard::close);
            }
        }
        try (RankProcesses processes = new RankProcesses(spec.commandLine().getErr(), exits)) {
            for (int index = 0; index < grid.processCount(); index++) {
                Process process = start(index, jobName, connectString, secret.file());
                String prefix = "[rank " + ranks.rankOf(index) + "] ";
                processes.add(index, ranks.rankOf(index), process, PrefixedOutput.pump(process.getInputStream(), out, prefix));
            }
            Verbosity.progress(spec.commandLine().getErr(), "canopy launch: " + grid.processCount() + " processes started"
                    + " on this machine (WAN emulated between its sites); waiting for them (at most " + timeoutSeconds + " s)");
            return processes.awaitAll(Duration.ofSeconds(timeoutSeconds));
        } finally {
            served.ifPresent(CommandDashboard::close);
        }
    }

    /** ProgramMain's arguments: the program's class, then its own arguments. */
    private List<String> programCommand() {
        List<String> command = new ArrayList<>(List.of(programClass));
        command.addAll(arguments);
        return command;
    }

    private Process start(int index, String jobName, String connectString, Path secret) throws Exception {
        String ownClasspath = System.getProperty("java.class.path");
        String fullClasspath = classpath == null ? ownClasspath : classpath + File.pathSeparator + ownClasspath;
        // The job and process in the command line, so that ps (and tests) can tell a job's processes.
        List<String> command = JvmCommand.of(System.getenv(), List.of("canopy.job=" + jobName, "canopy.process=" + index),
                fullClasspath, ProgramMain.class.getName(), programCommand());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> environment = builder.environment();
        environment.put(JoinOptions.ENV_JOB, jobName);
        environment.put(JoinOptions.ENV_PROCESS, Integer.toString(index));
        environment.put(JoinOptions.ENV_CONFIG, config.toAbsolutePath().toString());
        environment.put(JoinOptions.ENV_ZOOKEEPER, connectString);
        environment.put(JoinOptions.ENV_SECRET_FILE, secret.toString());
        environment.put(JoinOptions.ENV_EMULATE_WAN, "1");
        environment.put(JoinOptions.ENV_HOST, NodeAddresses.DEFAULT_HOST);
        Verbosity.childLogLevel().ifPresent(level -> environment.put(Verbosity.ENV_LOG_LEVEL, level));
        environment.put(JoinOptions.ENV_LIVE_PLANS, livePlans ? "1" : "0");
        environment.putAll(tlsFiles.environment(index));
        zooKeeperTls.exportTo(environment);
        // Standard input stays a pipe from this launcher, never written: it closes when the launcher dies.
        environment.put(LauncherWatch.ENV_WATCH_LAUNCHER, "1");
        return builder.redirectInput(ProcessBuilder.Redirect.PIPE).start();
    }
}
