package dev.canopy.collectives.multicast;

import dev.canopy.core.node.Member;
import dev.canopy.gridconfig.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The communicator's members cut into the groups that share one multicast domain at a level (one LAN,
 * one cluster), and the point-to-point tree between the groups' heads that a bcast crosses first. For a
 * bcast from {@code root}, the head of the root's group is the root, every other group's head its
 * lowest rank; the heads form a binomial tree over the groups numbered from the root's group.
 * Every member computes the same groups from the same members.
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

    /** The rank that multicasts in {@code group} for a bcast from {@code root}. */
    int head(int group, int root) {
        return group == groupOf[root] ? root : groups.get(group)[0];
    }

    /** The head that sends the message to {@code group}'s head; only for groups other than the root's. */
    int parentHead(int group, int root) {
        int relative = relative(group, root);
        int parent = relative & ~Integer.highestOneBit(relative);
        return head(absolute(parent, root), root);
    }

    /** The heads {@code group}'s head sends the message to, in order. */
    List<Integer> childHeads(int group, int root) {
        int relative = relative(group, root);
        List<Integer> children = new ArrayList<>();
        int firstBit = relative == 0 ? 1 : Integer.highestOneBit(relative) << 1;
        for (int bit = firstBit; relative + bit < groups.size(); bit <<= 1) {
            children.add(head(absolute(relative + bit, root), root));
        }
        return children;
    }

    private int relative(int group, int root) {
        return Math.floorMod(group - groupOf[root], groups.size());
    }

    private int absolute(int relative, int root) {
        return (relative + groupOf[root]) % groups.size();
    }
}
