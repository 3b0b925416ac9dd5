package dev.canopy.core.internal.emulation;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A running estimate of a latency the emulator adds without meaning to (a thread hand-off, the
 * real loopback hop): the median of the last {@link #WINDOW} samples.
 *
 * <p>Why a sliding-window median. These latencies have a long right tail on a loaded machine
 * (a descheduled thread, a GC pause): any mean, even a clipped one, sits above the typical value,
 * so subtracting it starts most messages too early and short links measure under their RTT. The
 * median is what the emulator's accuracy is judged by (the median ping) and ignores how far the
 * tail reaches. A window, unlike a whole-history quantile estimator such as P², follows the machine
 * when its load changes, within half a window of samples; 64 samples are few enough to re-sort on
 * every sample and enough for a stable median. (An even window takes the lower middle sample, so
 * ties lean towards correcting too little rather than too much.)
 *
 * <p>Lock-free and allocation-free after construction; shared by the nodes of one emulator. Samples
 * go into a ring; whichever recording thread finds nobody else computing re-computes the median
 * from a sorted copy (64 longs), the others skip it (the next sample catches up). {@link #nanos()}
 * reads the last median. Samples are clamped to {@code [0, MAX_NANOS]}. With several threads
 * recording at once, a median may miss the newest sample or, while the ring first fills, read a
 * slot another thread is about to write as 0; one sample later it is exact again.
 */
final class LatencyEstimate {

    static final int WINDOW = 64;
    static final long MAX_NANOS = 5_000_000L;

    private final AtomicLongArray ring = new AtomicLongArray(WINDOW);
    private final AtomicLong recorded = new AtomicLong();
    private final AtomicBoolean computing = new AtomicBoolean();
    /** Only touched by the thread that holds {@link #computing}. */
    private final long[] sorted = new long[WINDOW];
    private volatile long median;

    long nanos() {
        return median;
    }

    void record(long sampleNanos) {
        long count = recorded.getAndIncrement() + 1;
        ring.set((int) ((count - 1) % WINDOW), Math.max(0, Math.min(MAX_NANOS, sampleNanos)));
        if (computing.compareAndSet(false, true)) {
            try {
                median = medianOfRing((int) Math.min(count, WINDOW));
            } finally {
                computing.set(false);
            }
        }
    }

    private long medianOfRing(int filled) {
        for (int i = 0; i < filled; i++) {
            sorted[i] = ring.get(i);
        }
        Arrays.sort(sorted, 0, filled);
        return sorted[(filled - 1) / 2];
    }
}
