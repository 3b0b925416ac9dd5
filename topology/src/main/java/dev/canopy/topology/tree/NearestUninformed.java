package dev.canopy.topology.tree;

import dev.canopy.topology.graph.LatencyMatrix;
import java.util.Arrays;

/**
 * For each sender, its measured out-links sorted fastest first (sorted when the sender first asks),
 * and a cursor that only moves past targets that already have the message: finding a sender's
 * fastest link to a node without the message costs O(1) amortised, O(n^2 log n) for a whole tree.
 *
 * <p>Rows are sorted on a packed key, the latency's top 44 bits then the 20-bit target index; within
 * a run of equal truncated keys the exact latency decides (then the smaller index), so the answer
 * is exactly the fastest link, as a linear scan would find it.
 */
final class NearestUninformed {

    static final int MAX_NODES = 1 << 20;
    private static final int INDEX_BITS = 20;
    private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;

    private final LatencyMatrix latencies;
    private final boolean[] informed;
    private final long[][] rows;
    private final int[] cursor;

    /** @param informed which nodes have the message; read on every query, updated by the caller */
    NearestUninformed(LatencyMatrix latencies, boolean[] informed) {
        if (latencies.size() > MAX_NODES) {
            throw new IllegalArgumentException(latencies.size() + " nodes exceed the " + MAX_NODES + " this index supports");
        }
        this.latencies = latencies;
        this.informed = informed;
        this.rows = new long[latencies.size()][];
        this.cursor = new int[latencies.size()];
    }

    /** The target of {@code sender}'s fastest measured link to a node without the message, or -1. */
    int of(int sender) {
        long[] row = rows[sender] != null ? rows[sender] : sortedRow(sender);
        int p = cursor[sender];
        while (p < row.length && informed[(int) (row[p] & INDEX_MASK)]) {
            p++;
        }
        cursor[sender] = p;
        if (p == row.length) {
            return -1;
        }
        int best = (int) (row[p] & INDEX_MASK);
        double bestMs = latencies.latency(sender, best);
        for (int q = p + 1; q < row.length && (row[q] >>> INDEX_BITS) == (row[p] >>> INDEX_BITS); q++) {
            int target = (int) (row[q] & INDEX_MASK);
            double ms = latencies.latency(sender, target);
            if (!informed[target] && (ms < bestMs || ms == bestMs && target < best)) {
                best = target;
                bestMs = ms;
            }
        }
        return best;
    }

    private long[] sortedRow(int sender) {
        long[] row = new long[latencies.size()];
        int count = 0;
        for (int target = 0; target < latencies.size(); target++) {
            if (target != sender && latencies.linked(sender, target)) {
                // non-negative doubles order like their bit patterns; keep the top 44 bits
                long truncated = Double.doubleToLongBits(latencies.latency(sender, target)) >>> INDEX_BITS;
                row[count++] = (truncated << INDEX_BITS) | target;
            }
        }
        row = Arrays.copyOf(row, count);
        Arrays.sort(row);
        rows[sender] = row;
        return row;
    }
}
