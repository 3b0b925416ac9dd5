package dev.canopy.cli.bench.namespaces;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.HeartbeatSettings;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A member's side of a {@link NamespaceJob}: reads its first two arguments (its host's address, whether it hosts
 * the job's ZooKeeper), starts that ZooKeeper on its address and prints {@value NamespaceJob#ZOOKEEPER_LINE}
 * {@code host:port} if so, and starts its node with its host's address (a node of its own rather than
 * {@code Canopy.join}, for a ZooKeeper session and heartbeat timeout of 30 s instead of 4 and 5 s: 16 JVMs on a
 * small shared machine starve each other for seconds while they start). The job, process index, level file and
 * secret come in the environment ({@link JoinOptions#fromEnvironment}). Blocking: call it from {@code main}.
 */
public final class NamespaceMember implements AutoCloseable {

    static final Duration SESSION_TIMEOUT = Duration.ofSeconds(30);
    static final Duration START_TIMEOUT = Duration.ofMinutes(5);

    private final Vertx vertx;
    private final CanopyNode node;
    private final JoinOptions options;
    private final EmbeddedZooKeeper zooKeeper;
    private final List<String> arguments;

    private NamespaceMember(Vertx vertx, CanopyNode node, JoinOptions options, EmbeddedZooKeeper zooKeeper,
            List<String> arguments) {
        this.vertx = vertx;
        this.node = node;
        this.options = options;
        this.zooKeeper = zooKeeper;
        this.arguments = arguments;
    }

    /** Starts the member from {@code main}'s arguments: {@code ADDRESS HOST_ZOOKEEPER(true|false) REST...}. */
    public static NamespaceMember start(String[] args) {
        return start(args, System.getenv());
    }

    /** As {@link #start(String[])}, the job's settings from {@code launcherEnvironment} instead of this process's. */
    static NamespaceMember start(String[] args, Map<String, String> launcherEnvironment) {
        String address = args[0];
        boolean hostZooKeeper = Boolean.parseBoolean(args[1]);
        EmbeddedZooKeeper zooKeeper = hostZooKeeper ? EmbeddedZooKeeper.start(address) : null;
        Map<String, String> environment = new HashMap<>(launcherEnvironment);
        if (zooKeeper != null) {
            environment.put(JoinOptions.ENV_ZOOKEEPER, zooKeeper.connectString());
            print(NamespaceJob.ZOOKEEPER_LINE + zooKeeper.connectString());
        }
        JoinOptions options = JoinOptions.fromEnvironment(environment)
                .withTransport(TransportOptions.defaults().withHost(address));
        Vertx vertx = CanopyVertx.create();
        // Many JVMs on a small, shared machine: a member starved for seconds must not lose its ZooKeeper session
        // nor be declared failed by the heartbeats.
        CanopyNode node = Blocking.await(CanopyNode.start(vertx, options.nodeOptions()
                .withSessionTimeout(SESSION_TIMEOUT).withBarrierTimeout(START_TIMEOUT)
                .withHeartbeat(new HeartbeatSettings(Duration.ofSeconds(1), SESSION_TIMEOUT, HeartbeatSettings.DEFAULT_JITTER))));
        return new NamespaceMember(vertx, node, options, zooKeeper, List.of(Arrays.copyOfRange(args, 2, args.length)));
    }

    public Vertx vertx() {
        return vertx;
    }

    public CanopyNode node() {
        return node;
    }

    public JoinOptions options() {
        return options;
    }

    /** The arguments after the address and the ZooKeeper flag. */
    public List<String> arguments() {
        return arguments;
    }

    /** Prints a protocol line (standard output, flushed). */
    public static void print(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /**
     * Closes the node and Vert.x, then the ZooKeeper this member hosts. Vert.x is closed from this thread, not
     * chained on the node's close: that completes on an event loop, and {@code Vertx.close()} called there hands
     * its own completion to that loop after terminating it (Vert.x logs "event executor terminated"), so the
     * future never completed and the member hung here.
     */
    @Override
    public void close() {
        try {
            try {
                Blocking.await(node.close());
            } finally {
                Blocking.await(vertx.close());
            }
        } finally {
            if (zooKeeper != null) {
                zooKeeper.close();
            }
        }
    }
}
