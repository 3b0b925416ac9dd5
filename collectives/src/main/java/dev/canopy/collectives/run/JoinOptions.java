package dev.canopy.collectives.run;

import dev.canopy.core.internal.emulation.GridWanEmulation;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.node.TransportStack;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.security.tls.TlsSettings;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.ProcessPlacement;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How one process joins a job: the job name, which process of the level file it is (its global
 * index, which gives its coordinates), the level file, ZooKeeper and the transport layers (WAN
 * emulation when the grid is emulated on one machine), whether the session follows live plans (probes
 * and a plan leader; off unless {@link #withLivePlans} or {@code CANOPY_LIVE_PLANS=1} asks for them; every
 * process of a job must make the same choice), and the transport's settings (by default loopback on
 * ephemeral ports; {@link #withTransport} to bind and advertise another address), and the job secret every
 * process of the job shares (only processes that prove they know it get in), and, to reach ZooKeeper over TLS,
 * its TLS directory ({@link #withZooKeeperTls}).
 */
public record JoinOptions(JobId job, int processIndex, GridModel grid, String zooKeeper, TransportStack layers,
                          Optional<LivePlanSettings> livePlans, TransportOptions transport, JobSecret secret,
                          Optional<ZooKeeperTls> zooKeeperTls) {

    /** Environment variables {@code canopy launch} and {@code canopy node} set for each process. */
    public static final String ENV_JOB = "CANOPY_JOB";
    public static final String ENV_PROCESS = "CANOPY_PROCESS";
    public static final String ENV_CONFIG = "CANOPY_CONFIG";
    public static final String ENV_ZOOKEEPER = "CANOPY_ZK";
    /** {@code 1}: emulate the level file's WAN between sites (all processes on one machine). */
    public static final String ENV_EMULATE_WAN = "CANOPY_EMULATE_WAN";
    /** {@code 1}: probe the network and follow the plan leader's live plans ({@link LivePlanSettings#DEFAULTS}). */
    public static final String ENV_LIVE_PLANS = "CANOPY_LIVE_PLANS";
    /** The file holding the job secret ({@link JobSecret#fromFile}); the secret itself never goes into the environment. */
    public static final String ENV_SECRET_FILE = "CANOPY_SECRET_FILE";
    /** The ZooKeeper TLS directory ({@link ZooKeeperTls#fromDirectory}); unset: plain TCP to ZooKeeper. */
    public static final String ENV_ZOOKEEPER_TLS = "CANOPY_ZK_TLS";
    /** The address to listen on and advertise ({@code canopy launch} gives each host's own); unset: the loopback. */
    public static final String ENV_HOST = "CANOPY_HOST";

    public JoinOptions {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(zooKeeper, "zooKeeper");
        Objects.requireNonNull(layers, "layers");
        Objects.requireNonNull(livePlans, "livePlans");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(zooKeeperTls, "zooKeeperTls");
        if (processIndex < 0 || processIndex >= grid.processCount()) {
            throw new IllegalArgumentException("process index " + processIndex + " is not one of the "
                    + grid.processCount() + " processes of grid " + grid.name() + " (0 to " + (grid.processCount() - 1) + ")");
        }
    }

    /** Plans from the level file only (no probes, no plan leader), on loopback. */
    public JoinOptions(JobId job, int processIndex, GridModel grid, String zooKeeper, TransportStack layers,
            JobSecret secret) {
        this(job, processIndex, grid, zooKeeper, layers, Optional.empty(), TransportOptions.defaults(), secret,
                Optional.empty());
    }

    /**
     * Reads the options {@code canopy launch} passes: CANOPY_JOB, CANOPY_PROCESS, CANOPY_CONFIG, CANOPY_ZK,
     * CANOPY_SECRET_FILE (the job secret's file), CANOPY_EMULATE_WAN=1 to emulate the file's WAN,
     * CANOPY_LIVE_PLANS=1 to follow live plans, CANOPY_TLS_CERT, _KEY, _CA (and _PEER_NAME) for TLS, and
     * CANOPY_ZK_TLS (a TLS directory) to reach ZooKeeper over TLS. Without CANOPY_PROCESS the index is the
     * rank the process's launcher gives ({@code mpirun}, {@code srun}: {@link LauncherEnvironment}).
     */
    public static JoinOptions fromEnvironment(Map<String, String> environment) {
        String job = required(environment, ENV_JOB, "the job name");
        String config = required(environment, ENV_CONFIG, "the level file");
        String zooKeeper = required(environment, ENV_ZOOKEEPER, "the ZooKeeper connect string host:port");
        String secretFile = required(environment, ENV_SECRET_FILE, "the file holding the job secret");
        GridModel grid = GridConfigs.load(Path.of(config)).orElseThrow();
        int processIndex = processIndex(environment, grid, config);
        JoinOptions options = new JoinOptions(JobId.of(job), processIndex, grid, zooKeeper, TransportStack.none(),
                JobSecret.fromFile(Path.of(secretFile)));
        String host = environment.get(ENV_HOST);
        if (host != null && !host.isBlank()) {
            options = options.withTransport(options.transport().withHost(host.strip()));
        }
        Optional<TlsSettings> tls = TlsSettings.fromEnvironment(environment); // CANOPY_TLS_*: canopy launch --tls
        if (tls.isPresent()) {
            options = options.withTransport(options.transport().withTls(tls.get()));
        }
        String tlsDirectory = environment.get(ENV_ZOOKEEPER_TLS);
        if (tlsDirectory != null && !tlsDirectory.isBlank()) {
            options = options.withZooKeeperTls(ZooKeeperTls.fromDirectory(Path.of(tlsDirectory.strip())));
        }
        String livePlans = environment.get(ENV_LIVE_PLANS);
        if (livePlans != null && !livePlans.isBlank() && !"0".equals(livePlans.strip())) {
            if (!"1".equals(livePlans.strip())) {
                throw new IllegalArgumentException(ENV_LIVE_PLANS + "=" + livePlans
                        + " is neither 1 (follow live plans) nor 0 (plans from the level file only)");
            }
            options = options.withLivePlans(LivePlanSettings.DEFAULTS);
        }
        if ("1".equals(environment.get(ENV_EMULATE_WAN))) {
            // The emulator (a thread) starts with the node's transport, not here.
            return options.withLayers(GridEmulation.startedOnFirstUse(GridWanEmulation.of(grid),
                    options.placement().coordinates(), processIndex));
        }
        return options;
    }

    public JoinOptions withLayers(TransportStack newLayers) {
        return new JoinOptions(job, processIndex, grid, zooKeeper, newLayers, livePlans, transport, secret, zooKeeperTls);
    }

    /** Probe the network and follow the plan leader's live plans, measured and decided by {@code settings}. */
    public JoinOptions withLivePlans(LivePlanSettings settings) {
        return new JoinOptions(job, processIndex, grid, zooKeeper, layers, Optional.of(settings), transport, secret, zooKeeperTls);
    }

    /** The transport's settings, for example {@code TransportOptions.defaults().withHost(address)}. */
    public JoinOptions withTransport(TransportOptions newTransport) {
        return new JoinOptions(job, processIndex, grid, zooKeeper, layers, livePlans, newTransport, secret, zooKeeperTls);
    }

    /** Reach ZooKeeper over TLS with the files of {@code tls} (the same for every process is simplest). */
    public JoinOptions withZooKeeperTls(ZooKeeperTls tls) {
        return new JoinOptions(job, processIndex, grid, zooKeeper, layers, livePlans, transport, secret, Optional.of(tls));
    }

    public ProcessPlacement placement() {
        return grid.processes().get(processIndex);
    }

    /**
     * The node's options: id {@code p<index>}, the placement's coordinates, every process of the file expected,
     * these transport settings and layers, the job secret, and the ZooKeeper TLS settings if any.
     */
    public NodeOptions nodeOptions() {
        NodeOptions options = NodeOptions.of(job, NodeId.of("p" + processIndex), placement().coordinates(),
                        grid.processCount(), zooKeeper, secret)
                .withTransport(transport)
                .withLayers(layers);
        return zooKeeperTls.map(options::withZooKeeperTls).orElse(options);
    }

    private static int processIndex(Map<String, String> environment, GridModel grid, String config) {
        String index = environment.get(ENV_PROCESS);
        if (index == null || index.isBlank()) {
            LauncherEnvironment.Lookup launcher = LauncherEnvironment.lookup(environment, grid.processCount(), config);
            if (launcher instanceof LauncherEnvironment.Found found) {
                return found.index();
            }
            throw new IllegalArgumentException(launcher instanceof LauncherEnvironment.Invalid invalid ? invalid.message()
                    : ENV_PROCESS + " is not set, and no launcher variable (" + String.join(", ",
                            LauncherEnvironment.RANK_VARIABLES) + ") says which process this is; set " + ENV_PROCESS
                            + " or start the process under mpirun or srun");
        }
        try {
            return Integer.parseInt(index.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(ENV_PROCESS + "=" + index + " is not a process index (0, 1, ...)", e);
        }
    }

    private static String required(Map<String, String> environment, String name, String what) {
        String value = environment.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " is not set; it must give " + what
                    + " (canopy launch and canopy node set it)");
        }
        return value;
    }
}
