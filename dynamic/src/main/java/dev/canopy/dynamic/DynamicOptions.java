package dev.canopy.dynamic;

import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.core.node.HeartbeatSettings;
import dev.canopy.core.node.TransportStack;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.security.tls.TlsSettings;
import dev.canopy.core.security.tls.ZooKeeperTls;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Settings of a process's dynamic-process calls.
 *
 * @param zooKeeper  the ensemble of the name service, {@code host:port,...} (the job's own, usually)
 * @param secret     the name-service secret, which every job that connects through one namespace holds: it owns the
 *                   namespace's znodes and seals their content, so only its holders can read a port's key, the
 *                   credential of the inter-communicators made through the port. It need not be (and between jobs
 *                   that should not trust each other, should not be) any job's own secret
 * @param namespace  the name service's scope under {@code /canopy/names}: names published in one namespace are
 *                   found only there (default: the user's login name)
 * @param timeout    how long any call (lookup, accept, connect, an inter-communicator operation) may take before
 *                   its future fails
 * @param interPhase how inter-communicator collectives cross between the groups
 * @param layers     the layers put over each inter-communicator's transport (the job's WAN emulation, say)
 * @param host       the address each process's inter-communicator transport binds and the one it advertises; unset
 *                   (the default): those of the process's own job transport (its member's address in the group),
 *                   so jobs on different hosts connect with no extra setting
 * @param heartbeat  failure detection between the members of an inter-communicator (as a node's, NodeOptions)
 * @param tls        TLS 1.3 with mutual authentication on every inter-communicator connection (the job's
 *                   {@code --tls}), or none; both groups must make the same choice
 * @param zooKeeperTls TLS to the name service's ensemble (the job's {@code --zk-tls}), or plain TCP
 */
public record DynamicOptions(String zooKeeper, JobSecret secret, String namespace, Duration timeout,
        InterPhase interPhase, TransportStack layers, Optional<Host> host, HeartbeatSettings heartbeat,
        Optional<TlsSettings> tls, Optional<ZooKeeperTls> zooKeeperTls) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    /** The name-service secret's file, when the jobs that connect keep their own job secrets (they should). */
    public static final String ENV_NAMES_SECRET_FILE = "CANOPY_NAMES_SECRET_FILE";
    private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    public DynamicOptions {
        Objects.requireNonNull(zooKeeper, "zooKeeper");
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(interPhase, "interPhase");
        Objects.requireNonNull(layers, "layers");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(heartbeat, "heartbeat");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(zooKeeperTls, "zooKeeperTls");
        if (zooKeeper.isBlank()) {
            throw new IllegalArgumentException("dynamic options: the ZooKeeper connect string is empty; give host:port,...");
        }
        requireNamespace(namespace);
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("dynamic options: timeout " + timeout + " must be positive, e.g. PT30S");
        }
    }

    /**
     * Namespace of the user's login name, 30 s timeout, topology-aware inter phase, no layers, the job transport's
     * address, no TLS.
     */
    public static DynamicOptions of(String zooKeeper, JobSecret secret) {
        return new DynamicOptions(zooKeeper, secret, defaultNamespace(), DEFAULT_TIMEOUT, InterPhase.TOPOLOGY,
                TransportStack.none(), Optional.empty(), HeartbeatSettings.defaults(), Optional.empty(),
                Optional.empty());
    }

    /**
     * The options of a process started by {@code canopy launch} or {@code canopy node}: ZooKeeper from
     * {@code CANOPY_ZK}; the name-service secret from {@code CANOPY_NAMES_SECRET_FILE}, or else the job's own
     * ({@code CANOPY_SECRET_FILE}: then only jobs with the same job secret meet); the namespace from
     * {@code CANOPY_NAMESPACE} when set; the job's host ({@code CANOPY_HOST}) as the inter-communicator address; the job's TLS files ({@code CANOPY_TLS_*}, {@code --tls}) for the
     * inter-communicator connections too; the job's ZooKeeper TLS directory ({@code CANOPY_ZK_TLS}, {@code --zk-tls})
     * for the name service.
     */
    public static DynamicOptions fromEnvironment(Map<String, String> environment) {
        String zooKeeper = required(environment, JoinOptions.ENV_ZOOKEEPER);
        String namesSecret = environment.get(ENV_NAMES_SECRET_FILE);
        JobSecret secret = JobSecret.fromFile(Path.of(namesSecret != null && !namesSecret.isBlank() ? namesSecret.strip()
                : required(environment, JoinOptions.ENV_SECRET_FILE)));
        DynamicOptions options = of(zooKeeper, secret);
        String host = environment.get(JoinOptions.ENV_HOST);
        if (host != null && !host.isBlank()) {
            options = options.withHost(host.strip());
        }
        if ("1".equals(environment.get(JoinOptions.ENV_EMULATE_WAN))) {
            options = options.withLayers(JoinOptions.fromEnvironment(environment).layers());
        }
        Optional<TlsSettings> tls = TlsSettings.fromEnvironment(environment);
        if (tls.isPresent()) {
            options = options.withTls(tls.get());
        }
        String zooKeeperTlsDirectory = environment.get(JoinOptions.ENV_ZOOKEEPER_TLS);
        if (zooKeeperTlsDirectory != null && !zooKeeperTlsDirectory.isBlank()) {
            options = options.withZooKeeperTls(ZooKeeperTls.fromDirectory(Path.of(zooKeeperTlsDirectory.strip())));
        }
        String namespace = environment.get("CANOPY_NAMESPACE");
        return namespace == null ? options : options.withNamespace(namespace);
    }

    public DynamicOptions withNamespace(String newNamespace) {
        return new DynamicOptions(zooKeeper, secret, newNamespace, timeout, interPhase, layers, host, heartbeat, tls, zooKeeperTls);
    }

    public DynamicOptions withTimeout(Duration newTimeout) {
        return new DynamicOptions(zooKeeper, secret, namespace, newTimeout, interPhase, layers, host, heartbeat, tls, zooKeeperTls);
    }

    public DynamicOptions withInterPhase(InterPhase newPhase) {
        return new DynamicOptions(zooKeeper, secret, namespace, timeout, newPhase, layers, host, heartbeat, tls, zooKeeperTls);
    }

    public DynamicOptions withLayers(TransportStack newLayers) {
        return new DynamicOptions(zooKeeper, secret, namespace, timeout, interPhase, newLayers, host, heartbeat, tls, zooKeeperTls);
    }

    /** Binds {@code newHost} and advertises it (instead of the job transport's address). */
    public DynamicOptions withHost(String newHost) {
        return withHost(newHost, newHost);
    }

    /** Binds {@code bind} (say, {@code 0.0.0.0}) and advertises {@code advertised}, an address the other group reaches. */
    public DynamicOptions withHost(String bind, String advertised) {
        return new DynamicOptions(zooKeeper, secret, namespace, timeout, interPhase, layers,
                Optional.of(new Host(bind, advertised)), heartbeat, tls, zooKeeperTls);
    }

    /** These options with the host set: their own when given, else {@code jobAddress}, the job transport's. */
    DynamicOptions withHostOr(String jobAddress) {
        return host.isPresent() ? this : withHost(jobAddress);
    }

    public DynamicOptions withHeartbeat(HeartbeatSettings newHeartbeat) {
        return new DynamicOptions(zooKeeper, secret, namespace, timeout, interPhase, layers, host, newHeartbeat, tls, zooKeeperTls);
    }

    /** Every inter-communicator connection runs TLS with these files (the job's, usually); the other group must too. */
    public DynamicOptions withTls(TlsSettings settings) {
        return new DynamicOptions(zooKeeper, secret, namespace, timeout, interPhase, layers, host, heartbeat,
                Optional.of(settings), zooKeeperTls);
    }

    /** The name service reaches ZooKeeper over TLS with {@code files} (the job's {@code --zk-tls} directory). */
    public DynamicOptions withZooKeeperTls(ZooKeeperTls files) {
        return new DynamicOptions(zooKeeper, secret, namespace, timeout, interPhase, layers, host, heartbeat, tls,
                Optional.of(files));
    }

    static void requireNamespace(String namespace) {
        if (namespace == null || !NAMESPACE.matcher(namespace).matches() || namespace.equals(".")
                || namespace.equals("..")) {
            throw new IllegalArgumentException("name-service namespace '" + namespace + "' must be 1 to 64 characters"
                    + " of letters, digits and . _ - (and not . or ..); set it with DynamicOptions.withNamespace or"
                    + " CANOPY_NAMESPACE");
        }
    }

    private static String defaultNamespace() {
        String user = System.getProperty("user.name", "canopy");
        return NAMESPACE.matcher(user).matches() && !user.equals(".") && !user.equals("..") ? user : "canopy";
    }

    private static String required(Map<String, String> environment, String name) {
        String value = environment.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("environment variable " + name + " is not set; canopy launch and"
                    + " canopy node set it, or build DynamicOptions.of(zooKeeper, secret) yourself");
        }
        return value;
    }

    /** Where an inter-communicator transport listens ({@code bind}) and what it tells the other group ({@code advertised}). */
    public record Host(String bind, String advertised) {

        public Host {
            if (bind == null || bind.isBlank() || advertised == null || advertised.isBlank()) {
                throw new IllegalArgumentException("dynamic options: the inter-communicator host to bind ('" + bind
                        + "') and to advertise ('" + advertised + "') must not be empty; give addresses of this machine"
                        + " (DynamicOptions.withHost)");
            }
        }
    }
}
