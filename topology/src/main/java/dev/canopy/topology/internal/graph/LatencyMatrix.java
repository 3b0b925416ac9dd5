package dev.canopy.topology.internal.graph;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Dense, immutable view of one-way latencies between a fixed list of nodes, indexed 0..n-1 in list
 * order. The tree algorithms run on this view: a 1,000-node full matrix is a million entries and
 * array scans are an order of magnitude faster than iterating a general graph. A missing link is
 * {@link LatencySource#UNMEASURED} (positive infinity); the diagonal is 0.
 */
public final class LatencyMatrix {

    /** The most nodes a dense matrix holds (n^2 entries must fit an array); plan larger sets hierarchically. */
    public static final int MAX_NODES = 46_340;

    private final List<String> nodes;
    private final Map<String, Integer> indexByName;
    private final double[] oneWayMs;

    private LatencyMatrix(List<String> nodes, double[] oneWayMs) {
        this.nodes = nodes;
        this.oneWayMs = oneWayMs;
        this.indexByName = new HashMap<>(nodes.size() * 2);
        for (int i = 0; i < nodes.size(); i++) {
            if (indexByName.put(nodes.get(i), i) != null) {
                throw new IllegalArgumentException("node '" + nodes.get(i) + "' appears twice in the node list");
            }
        }
    }

    /** Reads every ordered pair of {@code nodes} from {@code source}. */
    public static LatencyMatrix of(List<String> nodes, LatencySource source) {
        List<String> copy = List.copyOf(nodes);
        int n = copy.size();
        requireDenseSize(n);
        double[] values = new double[n * n];
        for (int from = 0; from < n; from++) {
            for (int to = 0; to < n; to++) {
                values[from * n + to] = from == to ? 0.0 : checked(source.oneWayMs(copy.get(from), copy.get(to)),
                        copy.get(from), copy.get(to));
            }
        }
        return new LatencyMatrix(copy, values);
    }

    /**
     * Wraps a row-major {@code n * n} array of one-way latencies (copied). Off-diagonal entries must
     * be non-negative or {@link LatencySource#UNMEASURED}.
     */
    public static LatencyMatrix ofRowMajor(List<String> nodes, double[] oneWayMs) {
        List<String> copy = List.copyOf(nodes);
        int n = copy.size();
        requireDenseSize(n);
        if (oneWayMs.length != n * n) {
            throw new IllegalArgumentException("expected " + n * n + " latencies for " + n + " nodes, got " + oneWayMs.length);
        }
        double[] values = oneWayMs.clone();
        for (int from = 0; from < n; from++) {
            values[from * n + from] = 0.0;
            for (int to = 0; to < n; to++) {
                if (from != to) {
                    checked(values[from * n + to], copy.get(from), copy.get(to));
                }
            }
        }
        return new LatencyMatrix(copy, values);
    }

    /**
     * Wraps {@code oneWayMs} without copying it, for a caller that built it for this matrix alone and
     * already checked it (non-negative or {@link LatencySource#UNMEASURED}, 0 on the diagonal): a
     * 5,000-node matrix is 200 MB, which a copy would double.
     */
    static LatencyMatrix adopt(List<String> nodes, double[] oneWayMs) {
        List<String> copy = List.copyOf(nodes);
        requireDenseSize(copy.size());
        if (oneWayMs.length != copy.size() * copy.size()) {
            throw new IllegalArgumentException("expected " + copy.size() * copy.size() + " latencies for " + copy.size()
                    + " nodes, got " + oneWayMs.length);
        }
        return new LatencyMatrix(copy, oneWayMs);
    }

    private static void requireDenseSize(int n) {
        if (n > MAX_NODES) {
            throw new IllegalArgumentException(n + " nodes are too many for a dense latency matrix (at most " + MAX_NODES
                    + "); plan them hierarchically, one small matrix per group");
        }
    }

    private static double checked(double ms, String from, String to) {
        if (Double.isNaN(ms) || ms < 0) {
            throw new IllegalArgumentException("latency " + from + " -> " + to + " is " + ms
                    + " ms; expected a non-negative number or UNMEASURED");
        }
        return ms;
    }

    public int size() {
        return nodes.size();
    }

    public List<String> nodes() {
        return nodes;
    }

    public String name(int index) {
        return nodes.get(index);
    }

    /** Index of {@code name}, or -1 when it is not a node of this matrix. */
    public int indexOf(String name) {
        Integer index = indexByName.get(Objects.requireNonNull(name, "name"));
        return index == null ? -1 : index;
    }

    /** One-way latency {@code from -> to} in ms; positive infinity when not measured. */
    public double latency(int from, int to) {
        return oneWayMs[from * nodes.size() + to];
    }

    public boolean linked(int from, int to) {
        return latency(from, to) != LatencySource.UNMEASURED;
    }

    /**
     * Round-trip distance used to group nodes: the larger of the two measured directions times two
     * (positive infinity when neither direction was measured).
     */
    public double groupingRttMs(int a, int b) {
        double forward = latency(a, b);
        double backward = latency(b, a);
        if (forward == LatencySource.UNMEASURED) {
            return 2 * backward;
        }
        if (backward == LatencySource.UNMEASURED) {
            return 2 * forward;
        }
        return 2 * Math.max(forward, backward);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof LatencyMatrix that && nodes.equals(that.nodes) && Arrays.equals(oneWayMs, that.oneWayMs);
    }

    @Override
    public int hashCode() {
        return 31 * nodes.hashCode() + Arrays.hashCode(oneWayMs);
    }

    @Override
    public String toString() {
        return "LatencyMatrix[" + nodes.size() + " nodes]";
    }
}
