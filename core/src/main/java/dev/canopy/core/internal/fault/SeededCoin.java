package dev.canopy.core.internal.fault;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A reproducible coin: the n-th flip depends only on the seed and n (SplitMix64), so a run with
 * the same seed and the same order of sends makes the same decisions. Thread-safe.
 */
final class SeededCoin {

    private final long seed;
    private final AtomicLong flips = new AtomicLong();

    SeededCoin(long seed) {
        this.seed = seed;
    }

    long seed() {
        return seed;
    }

    /** True with probability {@code probability}. */
    boolean flip(double probability) {
        long z = seed + flips.getAndIncrement() * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (z >>> 11) * 0x1.0p-53 < probability;
    }
}
