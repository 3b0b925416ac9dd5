package dev.canopy.cli.agent;

import dev.canopy.cli.collectives.ZooKeeperTlsOption;
import dev.canopy.cli.dashboard.UntilStopped;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.dynamic.spawn.SpawnedProgramEntry;
import dev.canopy.processes.AgentOptions;
import dev.canopy.processes.AgentZnodes;
import dev.canopy.processes.ChildStarter;
import dev.canopy.processes.LaunchAgent;
import java.io.File;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code canopy agent}: the launcher agent of one host. It registers in ZooKeeper (pool {@code --pool}, with the
 * job secret's identity), starts the processes spawns ask of it, optionally from a pool of {@code --warm} JVMs
 * that wait for a program, and reports their state. It runs until stopped (SIGTERM, Ctrl-C); its children end
 * with it.
 */
@Command(name = "agent", mixinStandardHelpOptions = true,
        description = "Start the processes that spawns ask for, on this host (one agent per host).")
public final class AgentCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--zk", required = true, description = "ZooKeeper connect string host:port,...")
    private String zooKeeper;

    @Option(names = "--secret-file", required = true, paramLabel = "FILE",
            description = "The job secret (64 hex digits, mode 600): only its holders can send this agent requests.")
    private Path secretFile;

    @Option(names = "--site", required = true, description = "This host's site in the jobs' level file.")
    private String site;

    @Option(names = "--pool", defaultValue = AgentZnodes.DEFAULT_POOL, description = "The agent pool (default: ${DEFAULT-VALUE}).")
    private String pool;

    @Option(names = "--name", description = "This agent's name in the pool (default: the host name).")
    private String name;

    @Option(names = "--host", description = "The host name reported to spawns that place by host (default: this host's name).")
    private String host;

    @Option(names = "--warm", defaultValue = "0", description = "How many pre-started JVMs wait for a program (default: ${DEFAULT-VALUE}).")
    private int warm;

    @Option(names = "--classpath", description = "Where the programs' classes are, added to Canopy's own.")
    private String classpath;

    @Mixin
    private ZooKeeperTlsOption zooKeeperTls;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        AgentOptions options;
        try {
            String hostName = host != null ? host : InetAddress.getLocalHost().getHostName();
            String agentName = name != null ? name : AgentZnodes.requireName(hostName.replaceAll("[^A-Za-z0-9._-]", "_"),
                    "agent name (from the host name; give --name)");
            Optional<ZooKeeperTls> tls = zooKeeperTls.tls();
            Map<String, String> environment = new HashMap<>(System.getenv());
            zooKeeperTls.exportTo(environment);
            String ownClasspath = System.getProperty("java.class.path");
            ChildStarter starter = new ChildStarter(pool + "/" + agentName,
                    classpath == null ? ownClasspath : classpath + File.pathSeparator + ownClasspath,
                    SpawnedProgramEntry.class.getName(), environment, line -> {
                        synchronized (out) {
                            out.println(line);
                            out.flush();
                        }
                    });
            options = new AgentOptions(pool, agentName, hostName, site, warm, starter, zooKeeper, tls, secretFile,
                    JobSecret.fromFile(secretFile));
        } catch (IllegalArgumentException e) {
            err.println("canopy agent: " + e.getMessage());
            return 2;
        }
        try (UntilStopped stop = new UntilStopped()) {
            LaunchAgent agent;
            try {
                agent = LaunchAgent.start(options);
            } catch (IllegalStateException e) {
                err.println("canopy agent: " + e.getMessage());
                return 1;
            }
            try (agent) {
                out.println("canopy agent " + options.agent() + " ready: pool " + pool + ", host " + options.host() + ", site "
                        + site + ", " + warm + " warm JVMs");
                out.flush();
                stop.await(null);
            }
        }
        return 0;
    }
}
