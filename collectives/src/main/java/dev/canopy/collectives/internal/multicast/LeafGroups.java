package dev.canopy.collectives.internal.multicast;

import dev.canopy.core.node.Member;
import dev.canopy.gridconfig.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The communicator's members cut into the groups that share one multicast domain at a level (one LAN,
 * one cluster); {@link GroupRoutes} says where a bcast enters each. Every member computes the same groups
 * from the same members.
 */
final class LeafGroups {

    private final List<int[]> groups;
    private final int[] groupOf;

    private LeafGroups(List<int[]> groups, int[] groupOf) {
        this.groups = groups;
        this.groupOf = groupOf;
    }

    /** Members (by rank) grouped by their {@code level} group key, groups in order of their lowest rank. */
    static LeafGroups of(List<Member> members, Level level) {
        Map<String, List<Integer>> byKey = new LinkedHashMap<>();
        for (int rank = 0; rank < members.size(); rank++) {
            byKey.computeIfAbsent(members.get(rank).coordinates().groupKey(level), key -> new ArrayList<>()).add(rank);
        }
        List<int[]> groups = new ArrayList<>();
        int[] groupOf = new int[members.size()];
        for (List<Integer> ranks : byKey.values()) {
            for (int rank : ranks) {
                groupOf[rank] = groups.size();
            }
            groups.add(ranks.stream().mapToInt(Integer::intValue).toArray());
        }
        return new LeafGroups(groups, groupOf);
    }

    int count() {
        return groups.size();
    }

    int groupOf(int rank) {
        return groupOf[rank];
    }

    /** The communicator ranks of group {@code group}, in group-local order. */
    int[] ranks(int group) {
        return groups.get(group).clone();
    }
}
