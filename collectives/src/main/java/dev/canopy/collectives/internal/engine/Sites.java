package dev.canopy.collectives.internal.engine;

import dev.canopy.core.node.Member;
import dev.canopy.gridconfig.Coordinates;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sites of a communicator as a collective uses them: each rank's site and each site's
 * coordinator, which is the lowest rank of the site (every member computes the same one from the
 * members' coordinates alone, without the plan). Immutable.
 */
public final class Sites {

    private final int[] siteOfRank;
    private final List<int[]> membersOfSite;

    private Sites(int[] siteOfRank, List<int[]> membersOfSite) {
        this.siteOfRank = siteOfRank;
        this.membersOfSite = membersOfSite;
    }

    /** {@code siteNames.get(r)} names rank r's site; sites are numbered in order of their lowest rank. */
    public static Sites of(List<String> siteNames) {
        Map<String, List<Integer>> members = new LinkedHashMap<>();
        for (int rank = 0; rank < siteNames.size(); rank++) {
            members.computeIfAbsent(siteNames.get(rank), site -> new ArrayList<>()).add(rank);
        }
        int[] siteOfRank = new int[siteNames.size()];
        List<int[]> membersOfSite = new ArrayList<>();
        for (List<Integer> ranks : members.values()) {
            for (int rank : ranks) {
                siteOfRank[rank] = membersOfSite.size();
            }
            membersOfSite.add(ranks.stream().mapToInt(Integer::intValue).toArray());
        }
        return new Sites(siteOfRank, List.copyOf(membersOfSite));
    }

    /** The sites of a communicator's {@code members}, indexed by rank. */
    public static Sites ofMembers(List<Member> members) {
        return of(members.stream().map(member -> nameOf(member.coordinates())).toList());
    }

    /** How collectives name a site: wan group and site, since site names may repeat across wan groups. */
    public static String nameOf(Coordinates coordinates) {
        return coordinates.wanGroup() + "/" + coordinates.site();
    }

    public int count() {
        return membersOfSite.size();
    }

    /** The number of ranks. */
    public int size() {
        return siteOfRank.length;
    }

    public int siteOf(int rank) {
        return siteOfRank[rank];
    }

    /** The ranks of {@code site} in ascending order. */
    public int[] members(int site) {
        return membersOfSite.get(site).clone();
    }

    /** The lowest rank of {@code site}. */
    public int coordinator(int site) {
        return membersOfSite.get(site)[0];
    }

    public boolean sameSite(int rank, int other) {
        return siteOfRank[rank] == siteOfRank[other];
    }
}
