package dev.canopy.cli.bench.multicast;

import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.Optional;

/** One JSON row of the bench (one method and size), the same whether the members share a JVM or not. */
final class ResultRow {

    private ResultRow() {
    }

    /**
     * @param millis           the completion times of the timed single bcasts
     * @param backToBackBcasts bcasts in the back-to-back runs, all rounds together
     * @param bcastsPerSecond  the back-to-back rate (the median of the rounds where there are several)
     * @param counters         the substrate's retransmissions and the root's ACKs over the timed and back-to-back
     *                         bcasts; empty for the point-to-point trees (TCP's own retransmissions and ACKs are not
     *                         visible here)
     */
    static JsonObject of(String method, int bytes, double[] millis, int backToBackBcasts, double bcastsPerSecond,
            Optional<BenchMethod.Counters> counters) {
        double[] sorted = millis.clone();
        Arrays.sort(sorted);
        int bcasts = millis.length + backToBackBcasts;
        JsonObject row = new JsonObject()
                .put("method", method)
                .put("bytes", bytes)
                .put("latency_median_ms", round(percentile(sorted, 0.5)))
                .put("latency_p90_ms", round(percentile(sorted, 0.9)))
                .put("bcasts_per_s", round(bcastsPerSecond))
                .put("mb_per_s_per_receiver", round(bcastsPerSecond * bytes / 1e6));
        if (counters.isPresent()) {
            row.put("retransmissions_per_bcast", round(counters.get().retransmissions() / (double) bcasts));
            row.put("acks_at_root_per_bcast", round(counters.get().acksAtRoot() / (double) bcasts));
        } else {
            row.putNull("retransmissions_per_bcast");
            row.putNull("acks_at_root_per_bcast");
        }
        return row;
    }

    /**
     * {@code row} with the seed's skew test ({@link BroadcastTimer#skewedLoop}): the median and mean time spent inside
     * a bcast call, in ms; null where it did not run (no skew, or members in processes of their own).
     */
    static JsonObject withSkewedLoop(JsonObject row, Optional<double[]> sortedInCall) {
        if (sortedInCall.isEmpty()) {
            return row.putNull("skewed_call_median_ms").putNull("skewed_call_mean_ms");
        }
        double[] millis = sortedInCall.get();
        return row.put("skewed_call_median_ms", round(percentile(millis, 0.5)))
                .put("skewed_call_mean_ms", round(Arrays.stream(millis).average().orElse(0)));
    }

    /** The nearest-rank percentile of sorted values. */
    static double percentile(double[] sorted, double fraction) {
        int index = (int) Math.ceil(fraction * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
