package dev.canopy.cli.bench.multicast;

import dev.canopy.multicast.internal.model.LatencyModel;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * The latency model's run for {@value #MEMBERS} members (the design note's question: how many co-roots, and
 * how much faster than the binomial tree): once with the published InfiniBand parameters, once with the two
 * parameters this run measures, T_pp (the binomial tree's small-message latency over its ceil(log2 n) rounds)
 * and T_mc (the multicast small-message latency less the copies and the post). The root's per-message costs
 * (T_um, T_pack), which choose the co-root count, stay the published ones: the bench does not isolate them.
 */
final class ModelRun {

    static final int MEMBERS = 1024;

    private ModelRun() {
    }

    /** The model run; the measured variant only when the multicast rows really ran on multicast ({@code multicastRan}). */
    static JsonObject of(int members, JsonArray results, boolean multicastRan) {
        LatencyModel published = LatencyModel.PUBLISHED_INFINIBAND;
        JsonObject model = new JsonObject().put("members", MEMBERS).put("published_infiniband",
                toJson(published.predict(MEMBERS)));
        Optional<Double> binomial = smallestMedianMicros(results, "binomial");
        Optional<Double> multicast = smallestMedianMicros(results, "multicast");
        if (multicastRan && binomial.isPresent() && multicast.isPresent()) {
            double pointToPoint = binomial.get() / LatencyModel.depth(members);
            double flight = Math.max(0, multicast.get() - 2 * published.copyMicros() - published.postMicros());
            LatencyModel measured = new LatencyModel(published.copyMicros(), published.postMicros(), flight,
                    pointToPoint, published.reliableSendMicros(), published.ackMicros());
            model.put("measured_here", toJson(measured.predict(MEMBERS)).put("t_pp_us", round(pointToPoint))
                    .put("t_mc_us", round(flight)));
        }
        return model;
    }

    /** The median latency of {@code method}'s smallest message, in us. */
    private static Optional<Double> smallestMedianMicros(JsonArray results, String method) {
        return results.stream().map(JsonObject.class::cast).filter(row -> row.getString("method").equals(method))
                .min((a, b) -> Integer.compare(a.getInteger("bytes"), b.getInteger("bytes")))
                .map(row -> row.getDouble("latency_median_ms") * 1000);
    }

    private static JsonObject toJson(LatencyModel.Prediction prediction) {
        return new JsonObject().put("sub_group_size", prediction.subGroupSize()).put("co_roots", prediction.coRoots())
                .put("multicast_us", round(prediction.multicastMicros()))
                .put("binomial_us", round(prediction.binomialMicros()))
                .put("latency_ratio_vs_binomial", round(prediction.latencyRatio()));
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
