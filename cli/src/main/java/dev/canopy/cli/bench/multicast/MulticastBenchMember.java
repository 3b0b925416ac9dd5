package dev.canopy.cli.bench.multicast;

import dev.canopy.cli.bench.namespaces.NamespaceJob;
import dev.canopy.cli.bench.namespaces.NamespaceMember;
import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.multicast.BroadcastLayer;
import dev.canopy.collectives.internal.multicast.MulticastBroadcast;
import dev.canopy.collectives.internal.multicast.MulticastFabrics;
import dev.canopy.collectives.internal.segmentation.PipelineSegmenter;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.core.comm.Communicator;
import dev.canopy.multicast.internal.groups.GroupAllocator;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * One member of {@code canopy bench multicast --fabric udp}, started by {@link NamespaceBench} in its own
 * network namespace (an emulated host) through {@code ProgramMain}: it joins the job with its host's address
 * ({@link NamespaceMember}), opens the multicast layer over IP multicast (the level file asks for {@code multicast} at the LAN level) beside
 * the point-to-point binomial and pipelined trees, runs its side of {@link DistributedRuns}, and prints one
 * {@code RESULT} line of JSON. The first member also hosts the job's ZooKeeper.
 *
 * <p>Arguments: {@code ADDRESS HOST_ZOOKEEPER(true|false) RUN_JSON}; the job, process index, level file and
 * secret come in the environment ({@link JoinOptions#fromEnvironment}).
 */
public final class MulticastBenchMember {

    /** Attempts at the multicast layer ({@link LayerAttempts}). */
    static final int PROBE_ATTEMPTS = 3;
    static final String LAYER_LINE = "LAYER ";

    private MulticastBenchMember() {
    }

    public static void main(String[] args) throws Exception {
        try (NamespaceMember member = NamespaceMember.start(args)) {
            DistributedRuns.Parameters parameters = DistributedRuns.Parameters.fromJson(new JsonObject(member.arguments().get(0)));
            JoinOptions options = member.options();
            Communicator world = Blocking.await(member.node().join());
            Collectives binomial = binomialOver(world, options.grid());
            GroupAllocator leases = new GroupAllocator(member.node().zooKeeperSession(), member.node().job(),
                    options.grid().multicast(), world.context(), System.nanoTime());
            LayerAttempts.Opened opened = Blocking.await(new LayerAttempts(world,
                    communicator -> binomialOver(communicator, options.grid()), options.grid().levels(),
                    MulticastFabrics.ipOnly(leases).withUdpMtu(parameters.udpMtu()), parameters.multicastOptions())
                    .open(PROBE_ATTEMPTS));
            BroadcastLayer layer = opened.layer();
            if (world.rank() == 0) {
                NamespaceMember.print(LAYER_LINE + new JsonObject().put("description", layer.description())
                        .put("fallback", layer.fallback().orElse(null))
                        .put("failed_attempts", new JsonArray(opened.failedAttempts())).encode());
            }
            Collectives pipelined = binomial.withSettings(CollectiveSettings.defaults());
            List<DistributedRuns.Method> methods = List.of(
                    new DistributedRuns.Method("multicast", layer::bcast, () -> statsOf(layer)),
                    new DistributedRuns.Method("binomial", binomial::bcast, Optional::empty),
                    new DistributedRuns.Method("pipelined", pipelined::bcast, Optional::empty));
            JsonObject result = new DistributedRuns(world.rank(), binomial, parameters).run(methods);
            NamespaceMember.print(NamespaceJob.RESULT_LINE + result.put("rank", world.rank()).encode());
            // Nobody leaves before everyone has printed: a leaving member would fail the others' last bcasts.
            Blocking.await(binomial.barrier());
            layer.close();
        }
    }

    /** The trees' bcast over {@code communicator}: binomial everywhere, whole messages (no pipelining). */
    static Collectives binomialOver(Communicator communicator, GridModel grid) {
        return new Collectives(communicator, ConfiguredPlans.of(communicator.members(), grid,
                LevelAlgorithms.everywhere(TreeAlgorithm.BINOMIAL)),
                CollectiveSettings.defaults().withPipeline(PipelineSegmenter.wholeMessages()));
    }

    private static Optional<JsonObject> statsOf(BroadcastLayer layer) {
        if (!(layer instanceof MulticastBroadcast multicast)) {
            return Optional.empty();
        }
        var stats = Blocking.await(multicast.stats());
        return Optional.of(new JsonObject().put("retransmissions", stats.retransmissions())
                .put("feedback_received", stats.feedbackReceived()));
    }
}
