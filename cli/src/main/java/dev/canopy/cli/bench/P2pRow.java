package dev.canopy.cli.bench;

import io.vertx.core.json.JsonObject;
import java.util.Arrays;

/** One probe's numbers for one message size. */
record P2pRow(String probe, int size, double medianRttMicros, double p99RttMicros, double throughputMBps, int rounds,
        int streamed) {

    /** Builds a row from raw round-trip samples (ns) and a stream of {@code streamed} messages that took {@code streamNanos}. */
    static P2pRow of(String probe, int size, long[] rttNanos, int streamed, long streamNanos) {
        long[] sorted = rttNanos.clone();
        Arrays.sort(sorted);
        double median = sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
        long p99 = sorted[Math.max(0, (int) Math.ceil(0.99 * sorted.length) - 1)];
        double mbps = (double) size * streamed / (streamNanos / 1e9) / 1e6;
        return new P2pRow(probe, size, median / 1e3, p99 / 1e3, mbps, sorted.length, streamed);
    }

    JsonObject toJson() {
        return new JsonObject()
                .put("rtt_median_us", round(medianRttMicros))
                .put("rtt_p99_us", round(p99RttMicros))
                .put("throughput_mb_s", round(throughputMBps))
                .put("round_trips", rounds)
                .put("streamed_messages", streamed);
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
