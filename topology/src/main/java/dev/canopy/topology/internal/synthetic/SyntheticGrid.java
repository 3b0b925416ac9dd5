package dev.canopy.topology.internal.synthetic;

import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.graph.BandwidthSource;
import dev.canopy.topology.internal.graph.LatencySource;
import dev.canopy.topology.internal.hierarchy.Hierarchy;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A seeded synthetic grid for benchmarks beyond the size of the real matrices: wan groups placed on
 * the globe, sites spread within their region, then clusters, hosts and processes. One-way latency by
 * link level: heavy-WAN 2 ms + great-circle distance / 100 km/ms + both sites' access (0.5 to 5 ms),
 * 3 % of heavy-WAN links 3x slower (bad routes, as the paper's slow A-G link); light-WAN 0.5 ms +
 * distance / 100; LAN 0.2 to 0.8 ms; cluster 0.03 to 0.12 ms; host 0.005 to 0.02 ms. Every link gets
 * +-10 % per direction, so the matrix is asymmetric and breaks the triangle inequality, like real data.
 * Every site also gets an uplink between 10 Mb/s and 10 Gb/s (log-uniform), for bandwidth-aware planning.
 * Used by the planner benchmarks ({@code canopy bench topology}, the JMH planning benchmark) and tests.
 */
public final class SyntheticGrid {

    /** How many of each unit one unit of the next coarser level holds. */
    public record Shape(int wanGroups, int sitesPerWan, int clustersPerSite, int hostsPerCluster, int processesPerHost) {
        public int size() {
            return wanGroups * sitesPerWan * clustersPerSite * hostsPerCluster * processesPerHost;
        }
    }

    private final long seed;
    private final Map<String, Coordinates> coordinates = new LinkedHashMap<>();
    private final Map<String, Integer> indexOf = new HashMap<>();
    private final Map<String, Integer> siteIndex = new HashMap<>();
    private final int[] wanOf;
    private final int[] siteOf;
    private final double[][] wanPosition;
    private final double[][] siteOffsetKm;
    private final double[] siteAccessMs;
    private final double[] siteUplinkMbps;

    private SyntheticGrid(long seed, Shape shape) {
        this.seed = seed;
        SplittableRandom random = new SplittableRandom(seed);
        int sites = shape.wanGroups() * shape.sitesPerWan();
        wanPosition = new double[shape.wanGroups()][];
        for (int w = 0; w < shape.wanGroups(); w++) {
            wanPosition[w] = new double[] {Math.toRadians(-40 + 100 * random.nextDouble()), Math.toRadians(-180 + 360 * random.nextDouble())};
        }
        siteOffsetKm = new double[sites][];
        siteAccessMs = new double[sites];
        for (int s = 0; s < sites; s++) {
            siteOffsetKm[s] = new double[] {-600 + 1200 * random.nextDouble(), -600 + 1200 * random.nextDouble()};
            siteAccessMs[s] = 0.5 + 4.5 * random.nextDouble();
        }
        // drawn after the latencies' numbers, so the latencies are those of grids generated before uplinks existed
        siteUplinkMbps = new double[sites];
        for (int s = 0; s < sites; s++) {
            siteUplinkMbps[s] = Math.pow(10, 1 + 3 * random.nextDouble());
        }
        wanOf = new int[shape.size()];
        siteOf = new int[shape.size()];
        int index = 0;
        for (int w = 0; w < shape.wanGroups(); w++) {
            for (int s = 0; s < shape.sitesPerWan(); s++) {
                for (int c = 0; c < shape.clustersPerSite(); c++) {
                    for (int h = 0; h < shape.hostsPerCluster(); h++) {
                        for (int p = 0; p < shape.processesPerHost(); p++) {
                            String name = "w" + w + "s" + s + "c" + c + "h" + h + "p" + p;
                            coordinates.put(name, new Coordinates("w" + w, "w" + w + "s" + s, "lan", "c" + c, "h" + h));
                            wanOf[index] = w;
                            siteOf[index] = w * shape.sitesPerWan() + s;
                            siteIndex.put("w" + w + "s" + s, siteOf[index]);
                            indexOf.put(name, index++);
                        }
                    }
                }
            }
        }
    }

    public static SyntheticGrid generate(long seed, Shape shape) {
        return new SyntheticGrid(seed, shape);
    }

    public List<String> nodes() {
        return List.copyOf(coordinates.keySet());
    }

    public Hierarchy hierarchy() {
        return Hierarchy.of(coordinates);
    }

    public LatencySource latencies() {
        return this::oneWayMs;
    }

    /** Every process's messages to other sites share its site's uplink; site-to-site links are unlimited. */
    public BandwidthSource bandwidths() {
        return new BandwidthSource() {
            @Override
            public String siteOf(String node) {
                return coordinates.get(node).site();
            }

            @Override
            public double uplinkMbps(String site) {
                return siteUplinkMbps[siteIndex.get(site)];
            }

            @Override
            public double linkMbps(String fromSite, String toSite) {
                return Double.POSITIVE_INFINITY;
            }
        };
    }

    private double oneWayMs(String from, String to) {
        int a = indexOf.get(from);
        int b = indexOf.get(to);
        Level level = coordinates.get(from).linkLevel(coordinates.get(to));
        double base = switch (level) {
            case HEAVY_WAN -> {
                double km = greatCircleKm(wanPosition[wanOf[a]], wanPosition[wanOf[b]]);
                double route = unit(Math.min(a, b), Math.max(a, b), 1) < 0.03 ? 3 : 1;
                yield route * (2 + km / 100) + siteAccessMs[siteOf[a]] + siteAccessMs[siteOf[b]];
            }
            case LIGHT_WAN -> 0.5 + Math.hypot(siteOffsetKm[siteOf[a]][0] - siteOffsetKm[siteOf[b]][0],
                    siteOffsetKm[siteOf[a]][1] - siteOffsetKm[siteOf[b]][1]) / 100;
            case LAN -> 0.2 + 0.6 * unit(Math.min(a, b), Math.max(a, b), 2);
            case CLUSTER -> 0.03 + 0.09 * unit(Math.min(a, b), Math.max(a, b), 3);
            case HOST -> 0.005 + 0.015 * unit(Math.min(a, b), Math.max(a, b), 4);
        };
        return base * (0.9 + 0.2 * unit(a, b, 5));
    }

    /** A deterministic number in [0, 1) for the pair and purpose (SplitMix64 finaliser). */
    private double unit(int a, int b, int purpose) {
        long z = seed + 0x9E3779B97F4A7C15L * (((long) a << 32) ^ b ^ ((long) purpose << 58));
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (z >>> 11) * 0x1.0p-53;
    }

    private static double greatCircleKm(double[] p, double[] q) {
        double h = Math.pow(Math.sin((q[0] - p[0]) / 2), 2)
                + Math.cos(p[0]) * Math.cos(q[0]) * Math.pow(Math.sin((q[1] - p[1]) / 2), 2);
        return 2 * 6371 * Math.asin(Math.sqrt(Math.min(1, h)));
    }
}
