package dev.canopy.collectives.plan;

import java.util.List;

/**
 * The message sizes a sized plan has trees for: class k holds the messages of at least {@code lowerBounds[k]} bytes
 * and fewer than {@code lowerBounds[k + 1]}, and its trees are planned for {@code lowerBounds[k]} bytes (the largest
 * planned size a message reaches, so class 0, from 0 bytes, has the latency trees). Every member of a job uses the
 * same classes, so a message size names the same class, and the same trees, everywhere.
 *
 * @param lowerBounds strictly increasing, starting at 0, at most {@value #MAX_CLASSES} of them
 */
public record SizeClasses(List<Long> lowerBounds) {

    /** Classes fit the size-class byte of a plan id ({@link SizedPlan#classId}). */
    public static final int MAX_CLASSES = 16;
    /** One class: every message on the latency trees. */
    public static final SizeClasses LATENCY_ONLY = new SizeClasses(List.of(0L));

    public SizeClasses {
        lowerBounds = List.copyOf(lowerBounds);
        if (lowerBounds.isEmpty() || lowerBounds.get(0) != 0 || lowerBounds.size() > MAX_CLASSES) {
            throw new IllegalArgumentException("size classes start at 0 bytes and number 1 to " + MAX_CLASSES
                    + ", got " + lowerBounds);
        }
        for (int k = 1; k < lowerBounds.size(); k++) {
            if (lowerBounds.get(k) <= lowerBounds.get(k - 1)) {
                throw new IllegalArgumentException("size classes' lower bounds must increase strictly, got " + lowerBounds);
            }
        }
    }

    public int count() {
        return lowerBounds.size();
    }

    /** The class of a message of {@code bytes} bytes: the last one whose lower bound it reaches. */
    public int classOf(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("a message size is >= 0 bytes, got " + bytes);
        }
        int k = 0;
        while (k + 1 < lowerBounds.size() && lowerBounds.get(k + 1) <= bytes) {
            k++;
        }
        return k;
    }

    /** The size class {@code k}'s trees are planned for. */
    public long plannedBytes(int k) {
        return lowerBounds.get(k);
    }

    @Override
    public String toString() {
        return lowerBounds.toString();
    }
}
