package dev.canopy.probes.internal.forecast;

import java.util.Arrays;

/**
 * The most recent samples of one measured quantity, oldest dropped first once {@link #capacity()} is reached.
 * Not thread-safe: a series belongs to the thread that records its samples.
 */
public final class TimeSeries {

    private final double[] ring;
    private int next;
    private int size;

    public TimeSeries(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("time series capacity " + capacity + " must be at least 1");
        }
        this.ring = new double[capacity];
    }

    public void add(double sample) {
        if (!Double.isFinite(sample)) {
            throw new IllegalArgumentException("sample " + sample + " is not a finite number");
        }
        ring[next] = sample;
        next = (next + 1) % ring.length;
        size = Math.min(size + 1, ring.length);
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return ring.length;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The sample recorded {@code age} samples ago: age 0 is the newest. */
    public double get(int age) {
        if (age < 0 || age >= size) {
            throw new IndexOutOfBoundsException("age " + age + " outside the " + size + " samples held");
        }
        return ring[Math.floorMod(next - 1 - age, ring.length)];
    }

    public double newest() {
        return get(0);
    }

    /** A copy of the newest {@code count} samples (fewer if fewer are held), oldest first. */
    public double[] newestSamples(int count) {
        int n = Math.min(count, size);
        double[] copy = new double[n];
        for (int i = 0; i < n; i++) {
            copy[i] = get(n - 1 - i);
        }
        return copy;
    }

    @Override
    public String toString() {
        return "TimeSeries" + Arrays.toString(newestSamples(size));
    }
}
