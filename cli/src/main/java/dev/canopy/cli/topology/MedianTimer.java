package dev.canopy.cli.topology;

import java.util.Arrays;
import java.util.function.LongSupplier;

/** Times a task: warm-up runs first, then the median and minimum of the measured runs. */
final class MedianTimer {

    /** Median and fastest of the measured runs, in milliseconds. */
    record Timing(double medianMs, double minMs, int runs) {
    }

    private final LongSupplier nanoClock;
    private final int warmups;
    private final int runs;

    MedianTimer(LongSupplier nanoClock, int warmups, int runs) {
        if (warmups < 0 || runs < 1) {
            throw new IllegalArgumentException("need >= 0 warm-up runs and >= 1 measured run, got " + warmups + " and " + runs);
        }
        this.nanoClock = nanoClock;
        this.warmups = warmups;
        this.runs = runs;
    }

    Timing time(Runnable task) {
        for (int i = 0; i < warmups; i++) {
            task.run();
        }
        double[] ms = new double[runs];
        for (int i = 0; i < runs; i++) {
            long start = nanoClock.getAsLong();
            task.run();
            ms[i] = (nanoClock.getAsLong() - start) / 1e6;
        }
        Arrays.sort(ms);
        double median = runs % 2 == 1 ? ms[runs / 2] : (ms[runs / 2 - 1] + ms[runs / 2]) / 2;
        return new Timing(median, ms[0], runs);
    }
}
