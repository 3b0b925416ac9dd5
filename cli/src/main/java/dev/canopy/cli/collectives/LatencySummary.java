package dev.canopy.cli.collectives;

import java.util.Arrays;

/** Median and 90th percentile of measured times, by nearest rank. */
record LatencySummary(double medianMs, double p90Ms) {

    static LatencySummary of(double[] millis) {
        double[] sorted = millis.clone();
        Arrays.sort(sorted);
        return new LatencySummary(quantile(sorted, 0.5), quantile(sorted, 0.9));
    }

    private static double quantile(double[] sorted, double q) {
        int index = (int) Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
        return sorted[index];
    }
}
