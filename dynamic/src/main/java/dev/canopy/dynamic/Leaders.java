package dev.canopy.dynamic;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where an inter-communicator collective crosses between the groups. Each group's representatives are the
 * lowest rank of each of its sites; the round trips between every accepting and every connecting representative
 * were measured when the inter-communicator was made. {@link InterPhase#TOPOLOGY}: non-rooted operations cross
 * between the pair of representatives with the lowest round trip; a rooted one between its root and the
 * representative of the other group nearest to the root's site. A pair on one site (one LAN, by the members'
 * coordinates) is nearer than any pair across the WAN whatever its one sample says: on a loaded machine a LAN round
 * trip measured while the other pairs' connections open can exceed a WAN one. {@link InterPhase#FLAT}: between
 * the rank 0s (and the root). Every member of both groups computes the same choices from the same measurements.
 */
final class Leaders {

    /** Subtracted from a same-site pair's round trip: more than any measured round trip (an hour), so it ranks first. */
    private static final double SAME_SITE_FIRST_MS = 3_600_000;

    private final InterTable table;
    private final InterPhase phase;
    private final Map<Side, List<Integer>> representatives = new EnumMap<>(Side.class);
    /** Round trip in ms from accepting representative i to connecting representative j. */
    private final double[][] rttMs;

    Leaders(InterTable table, InterPhase phase, double[][] rttMs) {
        this.table = table;
        this.phase = phase;
        this.rttMs = rttMs;
        for (Side side : Side.values()) {
            representatives.put(side, representatives(table.group(side)));
        }
    }

    /** The lowest local rank of each site of {@code group}, in order of first appearance. */
    static List<Integer> representatives(GroupRecord group) {
        Map<String, Integer> bySite = new LinkedHashMap<>();
        for (int rank = 0; rank < group.size(); rank++) {
            bySite.putIfAbsent(group.members().get(rank).coordinates().site(), rank);
        }
        return new ArrayList<>(bySite.values());
    }

    List<Integer> representatives(Side side) {
        return representatives.get(side);
    }

    InterPhase phase() {
        return phase;
    }

    /** The local rank in {@code side}'s group that crosses for a non-rooted operation. */
    int leader(Side side) {
        if (phase == InterPhase.FLAT) {
            return 0;
        }
        int bestI = 0;
        int bestJ = 0;
        for (int i = 0; i < rttMs.length; i++) {
            for (int j = 0; j < rttMs[i].length; j++) {
                if (distance(i, j) < distance(bestI, bestJ)) {
                    bestI = i;
                    bestJ = j;
                }
            }
        }
        return side == Side.ACCEPT ? representatives(Side.ACCEPT).get(bestI) : representatives(Side.CONNECT).get(bestJ);
    }

    /** The local rank in {@code target}'s group that receives from (or sends to) {@code rootSide}'s member {@code root}. */
    int nearest(Side target, Side rootSide, int root) {
        if (phase == InterPhase.FLAT) {
            return 0;
        }
        int rootRep = siteRepresentativeIndex(rootSide, root);
        List<Integer> candidates = representatives(target);
        int best = 0;
        for (int k = 1; k < candidates.size(); k++) {
            if (distance(rootSide, rootRep, k) < distance(rootSide, rootRep, best)) {
                best = k;
            }
        }
        return candidates.get(best);
    }

    /** How far representative {@code mine} of {@code side} is from representative {@code theirs} of the other. */
    private double distance(Side side, int mine, int theirs) {
        return side == Side.ACCEPT ? distance(mine, theirs) : distance(theirs, mine);
    }

    /**
     * How far accepting representative {@code i} is from connecting representative {@code j}: its measured round trip,
     * less {@link #SAME_SITE_FIRST_MS} when both are on one site (so such pairs rank first, by their round trips).
     */
    private double distance(int i, int j) {
        return sameSite(i, j) ? rttMs[i][j] - SAME_SITE_FIRST_MS : rttMs[i][j];
    }

    private boolean sameSite(int i, int j) {
        return siteOf(Side.ACCEPT, representatives(Side.ACCEPT).get(i)).equals(
                siteOf(Side.CONNECT, representatives(Side.CONNECT).get(j)));
    }

    private String siteOf(Side side, int rank) {
        return table.group(side).members().get(rank).coordinates().site();
    }

    private int siteRepresentativeIndex(Side side, int rank) {
        String site = siteOf(side, rank);
        List<Integer> reps = representatives(side);
        for (int k = 0; k < reps.size(); k++) {
            if (siteOf(side, reps.get(k)).equals(site)) {
                return k;
            }
        }
        throw new IllegalStateException("rank " + rank + " of the " + side + " group has no site representative");
    }
}
