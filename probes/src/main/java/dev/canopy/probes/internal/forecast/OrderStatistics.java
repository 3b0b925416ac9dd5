package dev.canopy.probes.internal.forecast;

import java.util.Arrays;

/** The median of a sample, shared by the median-type forecasters. */
final class OrderStatistics {

    private OrderStatistics() {
    }

    /** The median of {@code samples}, which must not be empty; sorts the array in place. */
    static double median(double[] samples) {
        Arrays.sort(samples);
        int middle = samples.length / 2;
        return samples.length % 2 == 1 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2;
    }
}
