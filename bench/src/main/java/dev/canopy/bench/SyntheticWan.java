package dev.canopy.bench;

import dev.canopy.topology.internal.graph.LatencyGraph;
import java.util.SplittableRandom;

/**
 * A seeded synthetic wide-area network for planner inputs larger than the real matrices: sites
 * scattered over a 12,000 x 6,000 km plane, nodes dealt to sites in turn and placed within 50 km of
 * their site, each with an access delay of 0.05 to 2 ms. The measured RTT {@code a -> b} is twice
 * (distance at 100 km/ms + both access delays), each direction off by up to +-5 %, so the matrix is
 * complete and mildly asymmetric.
 */
final class SyntheticWan {

    private static final double KM_PER_MS = 100;

    private SyntheticWan() {
    }

    static LatencyGraph graph(long seed, int nodes, int sites) {
        SplittableRandom random = new SplittableRandom(seed);
        double[][] sitePosition = new double[sites][];
        for (int s = 0; s < sites; s++) {
            sitePosition[s] = new double[] {12_000 * random.nextDouble(), 6_000 * random.nextDouble()};
        }
        double[] x = new double[nodes];
        double[] y = new double[nodes];
        double[] accessMs = new double[nodes];
        LatencyGraph.Builder builder = LatencyGraph.builder();
        for (int n = 0; n < nodes; n++) {
            double[] site = sitePosition[n % sites];
            x[n] = site[0] + random.nextDouble(-50, 50);
            y[n] = site[1] + random.nextDouble(-50, 50);
            accessMs[n] = random.nextDouble(0.05, 2);
            builder.addNode(name(n));
        }
        for (int a = 0; a < nodes; a++) {
            for (int b = 0; b < nodes; b++) {
                if (a != b) {
                    double oneWayMs = Math.hypot(x[a] - x[b], y[a] - y[b]) / KM_PER_MS + accessMs[a] + accessMs[b];
                    builder.addRtt(name(a), name(b), 2 * oneWayMs * random.nextDouble(0.95, 1.05));
                }
            }
        }
        return builder.build();
    }

    private static String name(int node) {
        return "n" + node;
    }
}
