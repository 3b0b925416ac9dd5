package dev.canopy.cli.launch;

import dev.canopy.cli.Verbosity;
import dev.canopy.cli.collectives.RankProcesses;
import dev.canopy.core.security.tls.TlsSettings;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.processes.JvmCommand;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;

/**
 * {@code canopy launch --hostfile} (or {@code --remote}): runs a job's processes on the hosts of its level file,
 * started over ssh as a tree ({@link HostTree}, {@link SshSessions}), each host running {@code canopy launch-agent}
 * that starts its {@code canopy node}s. No WAN is emulated: the hosts are real. Output comes back prefixed with
 * each process's rank; the exit status is the worst of the processes'. When the launch is interrupted (Ctrl-C,
 * SIGTERM, {@code --timeout}) every host is told to stop, stops its nodes (SIGTERM, then SIGKILL) and the hosts
 * below it; if the launcher dies outright, each agent sees its ssh session close and does the same.
 */
public final class SshLaunch {

    /** The job as the launcher has checked it. */
    public record Job(GridModel grid, String levelFile, String name, String secretHex, String zooKeeper,
            Optional<ZooKeeperTls> zooKeeperTls, LaunchProgram program, IntFunction<Optional<TlsSettings>> tls) {
    }

    /** Agents stop their nodes within {@link LaunchAgentCommand#STOP_GRACE}, and wait for the hosts below. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    private final Job job;
    private final SshClient ssh;
    private final int fanout;
    private final PrintWriter out;
    private final PrintWriter err;
    private final int[] statuses;
    private final CountDownLatch ended;
    private final AtomicBoolean stoppingAfterLoss = new AtomicBoolean();
    private volatile SshSessions sessions;
    /** For the progress lines: how many hosts the job has, how many have started, the job's time limit. */
    private volatile long hostCount;
    private final AtomicLong hostsStarted = new AtomicLong();
    private volatile Duration timeout;

    private SshLaunch(Job job, SshClient ssh, int fanout, PrintWriter out, PrintWriter err) {
        this.job = job;
        this.ssh = ssh;
        this.fanout = fanout;
        this.out = out;
        this.err = err;
        this.statuses = new int[job.grid().processCount()];
        Arrays.fill(statuses, -1);
        this.ended = new CountDownLatch(statuses.length);
    }

    /**
     * Checks the ssh options and the grid's host names.
     *
     * @throws IllegalArgumentException naming the option or host at fault
     */
    public static void check(GridModel grid, SshOptions options) {
        options.client();
        HostTree.of(grid, options.fanout());
    }

    /** A launch of {@code job}, with options already {@linkplain #check checked}. */
    public static SshLaunch of(Job job, SshOptions options, PrintWriter out, PrintWriter err) {
        return new SshLaunch(job, options.client(), options.fanout(), out, err);
    }

    /**
     * Where the launcher's embedded ZooKeeper should listen: this machine's address towards the job's first host
     * that is not this machine's loopback (a host named {@code localhost} would send the others to themselves).
     *
     * @throws IllegalArgumentException when a host does not resolve or cannot be routed to
     */
    public static String zooKeeperAddress(GridModel grid) {
        String address = null;
        for (String host : HostTree.of(grid, 1).get(0).allHosts().toList()) {
            address = LaunchAddress.towards(host);
            if (!address.startsWith("127.") && !address.equals("0:0:0:0:0:0:0:1")) {
                return address;
            }
        }
        return address;
    }

    /**
     * Checks that a ZooKeeper connect string given for remote hosts does not name this machine's loopback.
     *
     * @throws IllegalArgumentException naming the server and the fix
     */
    public static void checkZooKeeper(String connectString) {
        for (String server : connectString.replaceFirst("/.*$", "").split(",")) {
            String host = server.strip().replaceFirst(":[0-9]*$", "");
            if (host.equals("localhost") || host.startsWith("127.") || host.equals("::1") || host.equals("[::1]")) {
                throw new IllegalArgumentException("--zk " + connectString + ": " + server.strip() + " is the loopback"
                        + " address, which every host reads as itself; give an address of the ZooKeeper server that the"
                        + " hosts reach, or leave out --zk for one in this launcher");
            }
        }
    }

    /**
     * Starts the hosts, waits for every process (at most {@code timeout}), and returns the worst exit status.
     *
     * @param rankOf the WORLD rank of each process index, for the output's prefixes
     * @param exits hears each process's end as its host reports it (or as its host is lost)
     */
    public int run(Duration timeout, IntUnaryOperator rankOf, ProcessExitListener exits) throws InterruptedException {
        List<HostTree> roots = HostTree.of(job.grid(), fanout);
        this.timeout = timeout;
        hostCount = roots.stream().mapToLong(root -> root.allHosts().count()).sum();
        LaunchPlan whole = plan(roots.get(0));
        try (SshSessions sessions = new SshSessions(statuses.length, message -> receive(message, rankOf, exits))) {
            this.sessions = sessions;
            Thread interrupted = new Thread(() -> stopOnInterrupt(sessions), "canopy launch ssh stop");
            Runtime.getRuntime().addShutdownHook(interrupted);
            try {
                roots.forEach(root -> sessions.start(whole.forChild(root)));
                if (!ended.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                    report("canopy launch: " + running(rankOf) + " did not finish within " + timeout.toSeconds()
                            + " s; stopping the processes on every host");
                    sessions.stop(STOP_GRACE);
                    return 1;
                }
                sessions.stop(STOP_GRACE);
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(interrupted);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running
                }
            }
        }
        return Arrays.stream(statuses).max().orElse(0);
    }

    /**
     * A host that could not be started (or vanished) leaves the others waiting for processes that will never join:
     * as {@code mpirun} does when a daemon fails, the whole job is stopped.
     */
    private void stopAfterLoss(AgentMessage.Lost lost) {
        if (ended.getCount() == 0 || !stoppingAfterLoss.compareAndSet(false, true)) {
            return;
        }
        report("canopy launch: lost " + lost.host() + " (its ssh session ended with status " + lost.sshStatus()
                + "); stopping the job on every host");
        Thread stop = new Thread(() -> {
            try {
                sessions.stop(STOP_GRACE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "canopy launch stop after loss");
        stop.setDaemon(true);
        stop.start();
    }

    private void stopOnInterrupt(SshSessions sessions) {
        if (ended.getCount() == 0) {
            return;
        }
        report("canopy launch: interrupted; stopping the processes on every host");
        try {
            sessions.stop(STOP_GRACE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private LaunchPlan plan(HostTree root) {
        Map<Integer, LaunchPlan.TlsFiles> files = new LinkedHashMap<>();
        Optional<String> peerName = Optional.empty();
        for (int process = 0; process < statuses.length; process++) {
            Optional<TlsSettings> settings = job.tls().apply(process);
            if (settings.isPresent()) {
                files.put(process, new LaunchPlan.TlsFiles(pem(settings.get().certificatePem()),
                        pem(settings.get().keyPem()), pem(settings.get().caPem())));
                peerName = settings.get().peerName();
            }
        }
        Optional<LaunchPlan.Tls> tls = files.isEmpty() ? Optional.empty() : Optional.of(new LaunchPlan.Tls(peerName, files));
        String java = System.getProperty("java.home") + "/bin/java";
        String extra = System.getenv(JvmCommand.ENV_JAVA_OPTS);
        List<String> javaOptions = new ArrayList<>(List.of("-XX:+ExitOnOutOfMemoryError"));
        Verbosity.childLogLevel().ifPresent(level -> javaOptions.add("-D" + Verbosity.ENV_LOG_LEVEL + "=" + level));
        if (extra != null && !extra.isBlank()) {
            javaOptions.addAll(List.of(extra.strip().split("\\s+")));
        }
        return new LaunchPlan(job.name(), job.secretHex(), job.levelFile(), job.zooKeeper(),
                job.zooKeeperTls().map(ZooKeeperTlsFiles::of), job.program(),
                new LaunchPlan.Runtime(java, System.getProperty("java.class.path"), javaOptions), ssh, tls, root);
    }

    private static String pem(byte[] pem) {
        return new String(pem, StandardCharsets.US_ASCII);
    }

    private void receive(AgentMessage message, IntUnaryOperator rankOf, ProcessExitListener exits) {
        if (message instanceof AgentMessage.Output line) {
            synchronized (out) {
                out.println("[rank " + rankOf.applyAsInt(line.process()) + "] " + line.text());
                out.flush();
            }
        } else if (message instanceof AgentMessage.Exited exit) {
            exited(exit.process(), exit.status(), RankProcesses.meaning(exit.status()), rankOf, exits);
        } else if (message instanceof AgentMessage.Unreported unreported) {
            exited(unreported.process(), unreported.status(), "its host's ssh session ended before it reported an exit"
                    + " status: it is gone, or out of reach (the messages above say why)", rankOf, exits);
        } else if (message instanceof AgentMessage.Started started) {
            Verbosity.progress(err, "canopy launch: " + started.host() + " started (reached from " + started.via() + ")");
            if (hostsStarted.incrementAndGet() == hostCount) {
                Verbosity.progress(err, "canopy launch: all " + hostCount + " hosts started; waiting for the "
                        + statuses.length + " processes (at most " + timeout.toSeconds() + " s)");
            }
        } else if (message instanceof AgentMessage.Problem problem) {
            report("canopy launch: " + problem.host() + ": " + problem.text());
        } else if (message instanceof AgentMessage.Lost lost) {
            stopAfterLoss(lost);
        }
    }

    private void exited(int process, int status, String meaning, IntUnaryOperator rankOf, ProcessExitListener exits) {
        synchronized (statuses) {
            if (statuses[process] >= 0) {
                return; // a host reported twice (or its session's end repeats it): the first status counts
            }
            statuses[process] = status;
        }
        exits.exited(process, status, meaning);
        if (status != 0) {
            report("canopy launch: rank " + rankOf.applyAsInt(process) + " failed with exit status " + status + ": "
                    + meaning);
        }
        ended.countDown();
    }

    private String running(IntUnaryOperator rankOf) {
        synchronized (statuses) {
            List<Integer> ranks = IntStream.range(0, statuses.length).filter(process -> statuses[process] < 0)
                    .map(rankOf).sorted().boxed().toList();
            return ranks.size() == 1 ? "rank " + ranks.get(0) : "ranks " + ranks;
        }
    }

    private void report(String line) {
        synchronized (err) {
            err.println(line);
            err.flush();
        }
    }
}
