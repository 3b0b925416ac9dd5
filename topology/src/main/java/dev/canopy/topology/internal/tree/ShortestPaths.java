package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.util.Arrays;

/**
 * Dijkstra's shortest paths from one root on a dense latency matrix, O(n^2) with array scans
 * (faster than a heap on a full matrix). Ties go to the smaller index; a parent is replaced only by a
 * strictly shorter path.
 *
 * @param distanceMs latency of the shortest path from the root, positive infinity when unreachable
 * @param parent predecessor on that path, -1 for the root and unreachable nodes
 */
public record ShortestPaths(double[] distanceMs, int[] parent) {

    public static ShortestPaths from(LatencyMatrix latencies, int root) {
        int n = latencies.size();
        double[] distance = new double[n];
        int[] parent = new int[n];
        boolean[] done = new boolean[n];
        Arrays.fill(distance, Double.POSITIVE_INFINITY);
        Arrays.fill(parent, -1);
        distance[root] = 0;
        for (int step = 0; step < n; step++) {
            int next = -1;
            for (int v = 0; v < n; v++) {
                if (!done[v] && (next < 0 || distance[v] < distance[next])) {
                    next = v;
                }
            }
            if (distance[next] == Double.POSITIVE_INFINITY) {
                break;
            }
            done[next] = true;
            for (int v = 0; v < n; v++) {
                double through = distance[next] + latencies.latency(next, v);
                if (!done[v] && through < distance[v]) {
                    distance[v] = through;
                    parent[v] = next;
                }
            }
        }
        return new ShortestPaths(distance, parent);
    }

    /** The latest shortest-path arrival: the lower bound on any tree's completion. */
    public double maxDistanceMs() {
        return Prediction.completionMs(distanceMs);
    }

    /** Index of the first node no path reaches, or -1. */
    public int firstUnreachable() {
        for (int v = 0; v < distanceMs.length; v++) {
            if (distanceMs[v] == Double.POSITIVE_INFINITY) {
                return v;
            }
        }
        return -1;
    }
}
