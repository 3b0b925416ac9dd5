package dev.canopy.cli.bench.multicast;

import dev.canopy.cli.bench.namespaces.NamespaceJob;
import dev.canopy.multicast.internal.fabric.udp.NetworkNamespaces;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code canopy bench multicast --fabric udp}: the members over real IP multicast, each a JVM of its own in a
 * network namespace of its own ({@link NamespaceJob}: veth pairs on a Linux bridge, unshaped; the machine's
 * interfaces and routes are never touched). Member 0 also hosts the job's ZooKeeper on its address. Each member
 * runs its side of {@link DistributedRuns} and prints its times; this process merges them ({@link MemberTimes}).
 * Namespaces are named {@link NetworkNamespaces#PREFIX}...; the job removes those of killed runs and its own on
 * exit, also on Ctrl-C.
 */
final class NamespaceBench {

    /**
     * The result: rows, what the multicast layer was (description), why it was not multicast, if so, and why the
     * attempts before the last one failed (their probes are retried, {@link LayerAttempts}).
     */
    record Outcome(JsonArray results, String layer, String fallback, JsonArray failedAttempts) {
    }

    private final int members;
    private final DistributedRuns.Parameters parameters;
    private final PrintWriter err;

    NamespaceBench(int members, DistributedRuns.Parameters parameters, PrintWriter err) {
        this.members = members;
        this.parameters = parameters;
        this.err = err;
    }

    /**
     * Builds the namespaces and runs the members.
     *
     * @throws IOException when the namespaces cannot be built (the message says why) or a member fails
     */
    Outcome run(String levelFile, long timeoutSeconds) throws IOException, InterruptedException {
        NamespaceJob.Setup setup = new NamespaceJob.Setup(NetworkNamespaces.PREFIX, members, Optional.empty(),
                "bench-multicast", levelFile);
        NamespaceJob.Outcome outcome = new NamespaceJob(setup, List.of(MulticastBenchMember.LAYER_LINE), err)
                .run(MulticastBenchMember.class, List.of(parameters.toJson().encode()), timeoutSeconds);
        String layer = outcome.tagged().get(MulticastBenchMember.LAYER_LINE);
        if (layer == null) {
            throw new IOException("the members did not open the multicast layer (their output above says why)");
        }
        JsonObject described = new JsonObject(layer);
        return new Outcome(MemberTimes.rows(new ArrayList<>(outcome.results().values()), parameters),
                described.getString("description"), described.getString("fallback"),
                described.getJsonArray("failed_attempts", new JsonArray()));
    }
}
