package dev.canopy.topology.internal.graph;

import java.util.Arrays;

/**
 * Directed links by node index with a primitive value each: one open-addressing table (linear
 * probing, at most half full) per source node. A million links take ~16 MB and no boxing, where a
 * {@code HashMap<Long, Double>} takes ~100 MB and seconds of garbage collection. Not thread-safe;
 * {@link LatencyGraph} never modifies its table after building it.
 */
final class LinkTable {

    /** What {@link #forEach} hands each link to. */
    @FunctionalInterface
    interface LinkVisitor {
        void visit(int from, int to, double value);
    }

    private static final int EMPTY = -1;

    private int[][] targets = new int[0][];
    private double[][] values = new double[0][];
    private int[] counts = new int[0];
    private int size;

    int size() {
        return size;
    }

    /** The value of {@code from -> to}, or NaN when absent. */
    double get(int from, int to) {
        if (from >= targets.length || targets[from] == null) {
            return Double.NaN;
        }
        int[] row = targets[from];
        for (int slot = slot(to, row.length); ; slot = (slot + 1) & (row.length - 1)) {
            if (row[slot] == to) {
                return values[from][slot];
            }
            if (row[slot] == EMPTY) {
                return Double.NaN;
            }
        }
    }

    /** Stores the value unless the link is present; returns whether it was stored. */
    boolean putIfAbsent(int from, int to, double value) {
        return store(from, to, value, Overwrite.NO);
    }

    /** Stores the value, replacing any present one. */
    void put(int from, int to, double value) {
        store(from, to, value, Overwrite.YES);
    }

    void forEach(LinkVisitor visitor) {
        for (int from = 0; from < targets.length; from++) {
            int[] row = targets[from];
            if (row != null) {
                for (int slot = 0; slot < row.length; slot++) {
                    if (row[slot] != EMPTY) {
                        visitor.visit(from, row[slot], values[from][slot]);
                    }
                }
            }
        }
    }

    private enum Overwrite { YES, NO }

    private boolean store(int from, int to, double value, Overwrite overwrite) {
        ensureRow(from);
        if (2 * (counts[from] + 1) > targets[from].length) {
            grow(from);
        }
        int[] row = targets[from];
        for (int slot = slot(to, row.length); ; slot = (slot + 1) & (row.length - 1)) {
            if (row[slot] == to) {
                if (overwrite == Overwrite.YES) {
                    values[from][slot] = value;
                }
                return overwrite == Overwrite.YES;
            }
            if (row[slot] == EMPTY) {
                row[slot] = to;
                values[from][slot] = value;
                counts[from]++;
                size++;
                return true;
            }
        }
    }

    private void ensureRow(int from) {
        if (from >= targets.length) {
            int length = Math.max(from + 1, targets.length * 2);
            targets = Arrays.copyOf(targets, length);
            values = Arrays.copyOf(values, length);
            counts = Arrays.copyOf(counts, length);
        }
        if (targets[from] == null) {
            targets[from] = emptyRow(8);
            values[from] = new double[8];
        }
    }

    private void grow(int from) {
        int[] oldTargets = targets[from];
        double[] oldValues = values[from];
        targets[from] = emptyRow(oldTargets.length * 2);
        values[from] = new double[oldTargets.length * 2];
        counts[from] = 0;
        size -= countOf(oldTargets);
        for (int slot = 0; slot < oldTargets.length; slot++) {
            if (oldTargets[slot] != EMPTY) {
                store(from, oldTargets[slot], oldValues[slot], Overwrite.YES);
            }
        }
    }

    private static int countOf(int[] row) {
        int count = 0;
        for (int target : row) {
            if (target != EMPTY) {
                count++;
            }
        }
        return count;
    }

    private static int[] emptyRow(int capacity) {
        int[] row = new int[capacity];
        Arrays.fill(row, EMPTY);
        return row;
    }

    private static int slot(int to, int capacity) {
        int h = to * 0x9E3779B9;
        return (h ^ (h >>> 16)) & (capacity - 1);
    }
}
