package dev.canopy.cli.bench.multicast;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.multicast.BroadcastLayer;
import dev.canopy.collectives.multicast.BroadcastLayers;
import dev.canopy.collectives.multicast.MulticastBroadcast;
import dev.canopy.collectives.multicast.MulticastFabrics;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.collectives.segmentation.PipelineSegmenter;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.failure.HeartbeatSettings;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.multicast.groups.GroupAllocator;
import dev.canopy.topology.hierarchy.LevelAlgorithms;
import dev.canopy.topology.tree.TreeAlgorithm;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One member of {@code canopy bench multicast --fabric udp}, started by {@link NamespaceBench} in its own
 * network namespace (an emulated host) through {@code ProgramMain}: it joins the job with its host's address
 * (a node of its own rather than {@code Canopy.join}, for a ZooKeeper session and heartbeat timeout of 30 s
 * instead of 4 and 5 s: 16 JVMs on a small shared machine starve each other for seconds while they start),
 * opens the multicast layer over IP multicast (the level file asks for {@code multicast} at the LAN level) beside
 * the point-to-point binomial and pipelined trees, runs its side of {@link DistributedRuns}, and prints one
 * {@code RESULT} line of JSON. The first member also hosts the job's ZooKeeper on its address and prints
 * {@code ZOOKEEPER host:port} before it joins, so that the launcher can start the others.
 *
 * <p>Arguments: {@code ADDRESS HOST_ZOOKEEPER(true|false) RUN_JSON}; the job, process index, level file and
 * secret come in the environment ({@link JoinOptions#fromEnvironment}).
 */
public final class MulticastBenchMember {

    static final String ZOOKEEPER_LINE = "ZOOKEEPER ";
    static final int PROBE_ATTEMPTS = 3;
    static final Duration SESSION_TIMEOUT = Duration.ofSeconds(30);
    static final Duration START_TIMEOUT = Duration.ofMinutes(5);
    static final String LAYER_LINE = "LAYER ";
    static final String RESULT_LINE = "RESULT ";

    private MulticastBenchMember() {
    }

    public static void main(String[] args) throws Exception {
        String address = args[0];
        boolean hostZooKeeper = Boolean.parseBoolean(args[1]);
        DistributedRuns.Parameters parameters = DistributedRuns.Parameters.fromJson(new JsonObject(args[2]));
        EmbeddedZooKeeper zooKeeper = hostZooKeeper ? EmbeddedZooKeeper.start(address) : null;
        Map<String, String> environment = new HashMap<>(System.getenv());
        if (zooKeeper != null) {
            environment.put(JoinOptions.ENV_ZOOKEEPER, zooKeeper.connectString());
            print(ZOOKEEPER_LINE + zooKeeper.connectString());
        }
        JoinOptions options = JoinOptions.fromEnvironment(environment)
                .withTransport(TransportOptions.defaults().withHost(address));
        Vertx vertx = CanopyVertx.create();
        // Many JVMs on a small, shared machine: a member starved for seconds must not lose its ZooKeeper session
        // nor be declared failed by the heartbeats.
        CanopyNode node = Blocking.await(CanopyNode.start(vertx, options.nodeOptions()
                .withSessionTimeout(SESSION_TIMEOUT).withBarrierTimeout(START_TIMEOUT)
                .withHeartbeat(new HeartbeatSettings(Duration.ofSeconds(1), SESSION_TIMEOUT, HeartbeatSettings.DEFAULT_JITTER))));
        try {
            Communicator world = Blocking.await(node.join());
            Collectives binomial = new Collectives(world, ConfiguredPlans.of(world.members(), options.grid(),
                    LevelAlgorithms.everywhere(TreeAlgorithm.BINOMIAL)),
                    CollectiveSettings.defaults().withPipeline(PipelineSegmenter.wholeMessages()));
            BroadcastLayer layer = openLayer(world, binomial, options, parameters, new GroupAllocator(
                    node.zooKeeperSession(), node.job(), options.grid().multicast(), world.context(), System.nanoTime()));
            if (world.rank() == 0) {
                print(LAYER_LINE + new JsonObject().put("description", layer.description())
                        .put("fallback", layer.fallback().orElse(null)).encode());
            }
            Collectives pipelined = binomial.withSettings(CollectiveSettings.defaults());
            List<DistributedRuns.Method> methods = List.of(
                    new DistributedRuns.Method("multicast", layer::bcast, () -> statsOf(layer)),
                    new DistributedRuns.Method("binomial", binomial::bcast, Optional::empty),
                    new DistributedRuns.Method("pipelined", pipelined::bcast, Optional::empty));
            JsonObject result = new DistributedRuns(world.rank(), binomial, parameters).run(methods);
            print(RESULT_LINE + result.put("rank", world.rank()).encode());
            // Nobody leaves before everyone has printed: a leaving member would fail the others' last bcasts.
            Blocking.await(binomial.barrier());
            layer.close();
        } finally {
            Blocking.await(node.close().eventually(vertx::close));
            if (zooKeeper != null) {
                zooKeeper.close();
            }
        }
    }

    /**
     * The multicast layer, its probe tried up to {@value #PROBE_ATTEMPTS} times: the probe lasts 600 ms, and on a
     * loaded machine a member starved for longer misses it although multicast works. Every member sees the same
     * outcome (the members agree on it), so they retry together.
     */
    private static BroadcastLayer openLayer(Communicator world, Collectives binomial, JoinOptions options,
            DistributedRuns.Parameters parameters, GroupAllocator leases) {
        for (int attempt = 1; ; attempt++) {
            BroadcastLayer layer = Blocking.await(BroadcastLayers.open(world, binomial, options.grid().levels(),
                    MulticastFabrics.ipOnly(leases), parameters.multicastOptions()));
            if (layer.fallback().isEmpty() || attempt == PROBE_ATTEMPTS) {
                return layer;
            }
            layer.close();
        }
    }

    private static Optional<JsonObject> statsOf(BroadcastLayer layer) {
        if (!(layer instanceof MulticastBroadcast multicast)) {
            return Optional.empty();
        }
        var stats = Blocking.await(multicast.stats());
        return Optional.of(new JsonObject().put("retransmissions", stats.retransmissions())
                .put("feedback_received", stats.feedbackReceived()));
    }

    private static void print(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
