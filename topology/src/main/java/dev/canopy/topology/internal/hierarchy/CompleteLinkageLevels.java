package dev.canopy.topology.internal.hierarchy;

import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Derives levels from measured RTTs by complete-linkage agglomerative clustering, finest level first.
 *
 * <p>The rule: start with every node alone. For host, then cluster, LAN and light-WAN, with that
 * level's threshold t: repeatedly merge the two current groups whose complete-linkage distance (the
 * largest RTT between a member of one and a member of the other) is smallest, while it is at most t;
 * ties go to the pair with the smallest first members. The groups at that point are the level's
 * groups, and merging continues from them for the next coarser level. Heavy-WAN is one group.
 *
 * <p>Hence (1) groups nest, because a coarser level only merges finer groups, and (2) every pair
 * inside a level-L group has RTT at most L's threshold, because complete linkage bounds all pairs.
 * The RTT of a pair is the larger of its two measured directions; a pair measured in neither
 * direction is infinitely far apart and never shares a group below heavy-WAN. O(n^2) memory; O(n^3)
 * time in the worst case, far less on real matrices because only rows whose nearest group merged are
 * rescanned.
 */
final class CompleteLinkageLevels {

    private static final Level[] FINEST_FIRST = {Level.HOST, Level.CLUSTER, Level.LAN, Level.LIGHT_WAN};

    private CompleteLinkageLevels() {
    }

    static Map<String, Coordinates> derive(LatencyMatrix latencies, LevelThresholds thresholds) {
        int n = latencies.size();
        double[][] distance = new double[n][n];
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                distance[a][b] = latencies.groupingRttMs(a, b);
                distance[b][a] = distance[a][b];
            }
        }
        int[] representative = new int[n];
        for (int v = 0; v < n; v++) {
            representative[v] = v;
        }
        boolean[] active = new boolean[n];
        java.util.Arrays.fill(active, true);
        int[][] groupAt = new int[FINEST_FIRST.length][];
        for (int level = 0; level < FINEST_FIRST.length; level++) {
            mergeWithin(distance, active, representative, thresholds.rttMs(FINEST_FIRST[level]));
            groupAt[level] = representative.clone();
        }
        return coordinates(latencies, groupAt);
    }

    /**
     * Merges groups (named by their smallest member) while the closest two are within {@code limit}.
     * Each active group caches its nearest neighbour; a merge only raises distances (complete
     * linkage), so only rows whose nearest was one of the merged pair are rescanned.
     */
    private static void mergeWithin(double[][] distance, boolean[] active, int[] representative, double limit) {
        int n = active.length;
        int[] nearest = new int[n];
        for (int a = 0; a < n; a++) {
            if (active[a]) {
                nearest[a] = nearestActive(distance, active, a);
            }
        }
        while (true) {
            int keep = -1;
            for (int a = 0; a < n; a++) {
                if (active[a] && nearest[a] >= 0 && (keep < 0 || distance[a][nearest[a]] < distance[keep][nearest[keep]])) {
                    keep = a;
                }
            }
            if (keep < 0 || distance[keep][nearest[keep]] > limit) {
                return;
            }
            int absorb = nearest[keep]; // keep is the smallest index of any closest pair, so absorb > keep
            for (int x = 0; x < n; x++) {
                double merged = Math.max(distance[keep][x], distance[absorb][x]);
                distance[keep][x] = merged;
                distance[x][keep] = merged;
            }
            active[absorb] = false;
            for (int v = 0; v < n; v++) {
                if (representative[v] == absorb) {
                    representative[v] = keep;
                }
            }
            for (int a = 0; a < n; a++) {
                if (active[a] && (a == keep || nearest[a] == keep || nearest[a] == absorb)) {
                    nearest[a] = nearestActive(distance, active, a);
                }
            }
        }
    }

    /** The active group closest to {@code a} (smallest index on ties), or -1 when a is alone. */
    private static int nearestActive(double[][] distance, boolean[] active, int a) {
        int best = -1;
        for (int b = 0; b < active.length; b++) {
            if (b != a && active[b] && (best < 0 || distance[a][b] < distance[a][best])) {
                best = b;
            }
        }
        return best;
    }

    /** Names groups wan1.., site1.., cluster1.. and host1.. in order of their first member. */
    private static Map<String, Coordinates> coordinates(LatencyMatrix latencies, int[][] groupAt) {
        int n = latencies.size();
        Map<String, Coordinates> result = new LinkedHashMap<>(n * 2);
        int[][] numberOf = new int[FINEST_FIRST.length][n];
        int[] next = new int[FINEST_FIRST.length];
        for (int v = 0; v < n; v++) {
            String[] names = new String[FINEST_FIRST.length];
            for (int level = 0; level < FINEST_FIRST.length; level++) {
                int group = groupAt[level][v];
                if (numberOf[level][group] == 0) {
                    numberOf[level][group] = ++next[level];
                }
                names[level] = String.valueOf(numberOf[level][group]);
            }
            result.put(latencies.name(v), new Coordinates("wan" + names[3], "site" + names[2], "lan" + names[1],
                    "cluster" + names[1], "host" + names[0]));
        }
        return result;
    }
}
