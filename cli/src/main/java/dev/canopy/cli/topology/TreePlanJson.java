package dev.canopy.cli.topology;

import dev.canopy.topology.internal.graph.LatencyMatrix;
import dev.canopy.topology.internal.tree.CostModel;
import dev.canopy.topology.internal.tree.FlatTreeBuilder;
import dev.canopy.topology.internal.tree.PlanningResult;
import dev.canopy.topology.internal.tree.Prediction;
import dev.canopy.topology.internal.tree.ShortestPaths;
import dev.canopy.topology.internal.tree.Tree;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** The JSON contract of {@code canopy topology plan --json}. */
final class TreePlanJson {

    private TreePlanJson() {
    }

    static JsonObject of(String requestedAlgorithm, Tree tree, LatencyMatrix matrix, CostModel cost) {
        Prediction prediction = cost.predict(tree, matrix);
        JsonArray edges = new JsonArray();
        for (Tree.Edge edge : tree.edges()) {
            edges.add(new JsonObject()
                    .put("parent", matrix.name(edge.parent()))
                    .put("child", matrix.name(edge.child()))
                    .put("latency_ms", matrix.latency(edge.parent(), edge.child())));
        }
        JsonObject arrivals = new JsonObject();
        prediction.arrivalMs().forEach(arrivals::put);
        return new JsonObject()
                .put("algorithm", requestedAlgorithm)
                .put("chosen_algorithm", tree.algorithm())
                .put("root", tree.root())
                .put("nodes", tree.size())
                .put("edges", edges)
                .put("arrival_ms", arrivals)
                .put("predicted_completion_ms", prediction.completionMs())
                .put("lower_bound_ms", lowerBoundMs(matrix, tree.rootIndex()))
                .put("flat_completion_ms", flatCompletionMs(matrix, tree.rootIndex(), cost))
                .put("cost_model", new JsonObject()
                        .put("overhead_ms", cost.overheadMs())
                        .put("gap_ms", cost.gapMs())
                        .put("per_byte_ms", cost.perByteMs())
                        .put("message_bytes", cost.messageBytes()));
    }

    /** The shortest-path tree's completion with zero overhead: no tree can be faster. */
    static double lowerBoundMs(LatencyMatrix matrix, int root) {
        return ShortestPaths.from(matrix, root).maxDistanceMs();
    }

    /** The flat tree's completion under {@code cost}, or null when the root lacks a direct link to some node. */
    static Double flatCompletionMs(LatencyMatrix matrix, int root, CostModel cost) {
        PlanningResult<Tree> flat = new FlatTreeBuilder().build(matrix, root, cost);
        return flat.isPlanned() ? cost.predict(flat.orElseThrow(), matrix).completionMs() : null;
    }
}
