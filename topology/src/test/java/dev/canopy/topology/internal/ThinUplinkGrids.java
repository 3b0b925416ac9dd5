package dev.canopy.topology.internal;

import dev.canopy.topology.internal.graph.BandwidthSource;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Seeded grids of one node per site with WAN latencies and site uplinks between 10 Mb/s and
 * 10 Gb/s (log-uniform), some site-to-site links limited too, for bandwidth-aware model tests.
 */
public final class ThinUplinkGrids {

    /** The latencies between the sites' nodes and their bandwidths. */
    public record Grid(LatencyMatrix latencies, BandwidthSource bandwidths, Map<String, Double> uplinkMbps) {
    }

    private ThinUplinkGrids() {
    }

    public static Grid generate(long seed, int sites) {
        Random random = new Random(seed);
        List<String> names = new ArrayList<>();
        Map<String, Double> uplinks = new HashMap<>();
        for (int i = 0; i < sites; i++) {
            names.add("s" + i);
            uplinks.put("s" + i, Math.pow(10, 1 + 3 * random.nextDouble()));
        }
        double[] latencies = new double[sites * sites];
        double[] linkMbps = new double[sites * sites];
        for (int a = 0; a < sites; a++) {
            for (int b = a + 1; b < sites; b++) {
                double oneWay = 2 + 80 * random.nextDouble();
                latencies[a * sites + b] = oneWay;
                latencies[b * sites + a] = oneWay;
                double link = random.nextInt(4) == 0 ? Math.pow(10, 1 + 3 * random.nextDouble()) : Double.POSITIVE_INFINITY;
                linkMbps[a * sites + b] = link;
                linkMbps[b * sites + a] = link;
            }
        }
        LatencyMatrix matrix = LatencyMatrix.ofRowMajor(names, latencies);
        BandwidthSource bandwidths = new BandwidthSource() {
            @Override
            public String siteOf(String node) {
                return node;
            }

            @Override
            public double uplinkMbps(String site) {
                return uplinks.get(site);
            }

            @Override
            public double linkMbps(String fromSite, String toSite) {
                return linkMbps[matrix.indexOf(fromSite) * sites + matrix.indexOf(toSite)];
            }
        };
        return new Grid(matrix, bandwidths, Map.copyOf(uplinks));
    }

    /** Every node its own site with the same uplink, links unlimited. */
    public static BandwidthSource uniformUplinks(double mbps) {
        return new BandwidthSource() {
            @Override
            public String siteOf(String node) {
                return node;
            }

            @Override
            public double uplinkMbps(String site) {
                return mbps;
            }

            @Override
            public double linkMbps(String fromSite, String toSite) {
                return Double.POSITIVE_INFINITY;
            }
        };
    }
}
