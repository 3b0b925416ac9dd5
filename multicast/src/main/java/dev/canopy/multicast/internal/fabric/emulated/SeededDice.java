package dev.canopy.multicast.internal.fabric.emulated;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Reproducible fault decisions: the n-th roll depends only on the seed and n (SplitMix64), so a
 * single-threaded run with the same seed makes the same decisions. Thread-safe.
 */
final class SeededDice {

    private final long seed;
    private final AtomicLong rolls = new AtomicLong();

    SeededDice(long seed) {
        this.seed = seed;
    }

    /** True with probability {@code probability}. */
    boolean chance(double probability) {
        return probability > 0 && unit() < probability;
    }

    /** Uniform in [0, bound]. */
    long upTo(long bound) {
        return bound <= 0 ? 0 : (long) (unit() * (bound + 1));
    }

    private double unit() {
        long z = seed + rolls.incrementAndGet() * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (z >>> 11) * 0x1.0p-53;
    }
}
