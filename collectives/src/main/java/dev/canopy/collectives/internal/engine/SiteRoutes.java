package dev.canopy.collectives.internal.engine;

import dev.canopy.topology.internal.graph.LatencyMatrix;
import dev.canopy.topology.internal.tree.ShortestPaths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * For every ordered pair of sites, the sites whose coordinators carry that pair's aggregate in a
 * {@link SiteExchange}: the origin first, the destination last, relays in between. Every member
 * computes the same routes from the same inputs (the plan's latencies, the settings' hop cost), so
 * the coordinators agree on who sends what to whom without exchanging a word about it. Immutable;
 * no network here.
 */
public final class SiteRoutes {

    private final int siteCount;
    /** {@code paths[from * siteCount + to]}; the diagonal is unused. */
    private final int[][] paths;

    private SiteRoutes(int siteCount, int[][] paths) {
        this.siteCount = siteCount;
        this.paths = paths;
    }

    /** Every aggregate straight from its origin's coordinator to its destination's: one hop each. */
    public static SiteRoutes direct(int siteCount) {
        int[][] paths = new int[siteCount * siteCount][];
        for (int from = 0; from < siteCount; from++) {
            for (int to = 0; to < siteCount; to++) {
                paths[from * siteCount + to] = new int[] {from, to};
            }
        }
        return new SiteRoutes(siteCount, paths);
    }

    /**
     * The routes of least predicted time: each hop costs its one-way latency plus {@code hopMs}, what
     * a coordinator spends receiving, copying and sending a message on (so a relay must save more
     * than that to be taken). Shortest paths from topology's Dijkstra, which breaks ties
     * deterministically (towards the direct link, then the lower site). A pair that no measured
     * path joins goes direct: a link without a forecast still works.
     *
     * @param coordinators one-way latencies between the sites' coordinators, site i at index i
     *     ({@link dev.canopy.topology.internal.graph.LatencySource#UNMEASURED} where not measured)
     */
    public static SiteRoutes fastest(LatencyMatrix coordinators, double hopMs) {
        if (!(hopMs >= 0) || Double.isInfinite(hopMs)) {
            throw new IllegalArgumentException("a relay hop costs a finite number of ms >= 0, got " + hopMs);
        }
        int siteCount = coordinators.size();
        double[] perHop = new double[siteCount * siteCount];
        for (int from = 0; from < siteCount; from++) {
            for (int to = 0; to < siteCount; to++) {
                perHop[from * siteCount + to] = from == to ? 0 : coordinators.latency(from, to) + hopMs;
            }
        }
        LatencyMatrix weights = LatencyMatrix.ofRowMajor(coordinators.nodes(), perHop);
        int[][] paths = new int[siteCount * siteCount][];
        for (int from = 0; from < siteCount; from++) {
            ShortestPaths shortest = ShortestPaths.from(weights, from);
            for (int to = 0; to < siteCount; to++) {
                paths[from * siteCount + to] = shortest.distanceMs()[to] == Double.POSITIVE_INFINITY
                        ? new int[] {from, to}
                        : pathTo(shortest.parent(), from, to);
            }
        }
        return new SiteRoutes(siteCount, paths);
    }

    /**
     * {@link #fastest(LatencyMatrix, double)} over the plan's latencies between the coordinators of
     * {@code sites}.
     */
    public static SiteRoutes fastest(Sites sites, RankLatencies latencies, double hopMs) {
        int count = sites.count();
        List<String> names = new ArrayList<>(count);
        double[] oneWayMs = new double[count * count];
        for (int from = 0; from < count; from++) {
            names.add("rank " + sites.coordinator(from));
            for (int to = 0; to < count; to++) {
                oneWayMs[from * count + to] = from == to ? 0
                        : latencies.oneWayMs(sites.coordinator(from), sites.coordinator(to));
            }
        }
        return fastest(LatencyMatrix.ofRowMajor(names, oneWayMs), hopMs);
    }

    private static int[] pathTo(int[] parent, int from, int to) {
        int hops = 0;
        for (int site = to; site != from; site = parent[site]) {
            hops++;
        }
        int[] path = new int[hops + 1];
        int site = to;
        for (int i = hops; i >= 0; i--) {
            path[i] = site;
            site = parent[site];
        }
        return path;
    }

    public int siteCount() {
        return siteCount;
    }

    /**
     * These routes for the pairs from a site to a later one only; the other pairs carry nothing (a
     * scan's totals flow towards higher ranks only).
     */
    public SiteRoutes forwardOnly() {
        int[][] forward = paths.clone();
        for (int from = 0; from < siteCount; from++) {
            for (int to = 0; to <= from; to++) {
                forward[from * siteCount + to] = null;
            }
        }
        return new SiteRoutes(siteCount, forward);
    }

    /** Whether an aggregate travels from {@code from} to {@code to} at all. */
    public boolean carries(int from, int to) {
        return from != to && from >= 0 && to >= 0 && from < siteCount && to < siteCount
                && paths[from * siteCount + to] != null;
    }

    /** The sites on the route from {@code from} to {@code to}, both included (a copy). */
    public int[] path(int from, int to) {
        return route(from, to).clone();
    }

    /** Links the aggregate from {@code from} to {@code to} crosses: 1 when direct. */
    public int hops(int from, int to) {
        return route(from, to).length - 1;
    }

    /** The site after {@code hop} hops on the route from {@code from} to {@code to} (0: {@code from}). */
    int siteAfter(int from, int to, int hop) {
        return route(from, to)[hop];
    }

    /** The longest route's hops: how many rounds the coordinators relay. */
    public int rounds() {
        int rounds = 0;
        for (int from = 0; from < siteCount; from++) {
            for (int to = 0; to < siteCount; to++) {
                if (carries(from, to)) {
                    rounds = Math.max(rounds, hops(from, to));
                }
            }
        }
        return rounds;
    }

    private int[] route(int from, int to) {
        if (!carries(from, to)) {
            throw new IllegalArgumentException("no route from site " + from + " to site " + to + " among "
                    + siteCount + " sites");
        }
        return paths[from * siteCount + to];
    }

    /** Every route, one per line: {@code 0 -> 2 -> 1}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (int from = 0; from < siteCount; from++) {
            for (int to = 0; to < siteCount; to++) {
                if (carries(from, to)) {
                    text.append(Arrays.stream(route(from, to)).mapToObj(String::valueOf)
                            .collect(Collectors.joining(" -> "))).append('\n');
                }
            }
        }
        return text.toString();
    }
}
