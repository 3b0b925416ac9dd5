package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.internal.engine.RootedTree;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * Where a multicast bcast enters each leaf group, from the plan's tree rooted at the bcast's root: every
 * group's head is the root in the root's group and otherwise the group's member nearest the root in the
 * plan's tree (the site or cluster coordinator; the lowest rank on a tie). The heads form the plan's tree
 * contracted to them ({@link #headsTree}): a head's parent is the head of the group its plan-tree parent is
 * in, so the message crosses the WAN on the plan's trees (HLOT, ...) between the coordinators and is then
 * multicast inside each group. Every member computes the same routes from the same tree.
 */
final class GroupRoutes {

    private final int[] heads;
    private final RootedTree headsTree;

    private GroupRoutes(int[] heads, RootedTree headsTree) {
        this.heads = heads;
        this.headsTree = headsTree;
    }

    static GroupRoutes of(LeafGroups groups, RootedTree tree) {
        int root = tree.root();
        int size = tree.size();
        int[] depth = new int[size];
        List<Integer> preorder = new ArrayList<>(size);
        Deque<Integer> pending = new ArrayDeque<>(List.of(root));
        while (!pending.isEmpty()) {
            int rank = pending.pop();
            preorder.add(rank);
            int[] children = tree.children(rank);
            for (int i = children.length - 1; i >= 0; i--) {
                depth[children[i]] = depth[rank] + 1;
                pending.push(children[i]);
            }
        }
        int[] heads = new int[groups.count()];
        Arrays.fill(heads, -1);
        for (int rank = 0; rank < size; rank++) {
            int group = groups.groupOf(rank);
            int head = heads[group];
            if (head < 0 || depth[rank] < depth[head]) {
                heads[group] = rank;
            }
        }
        heads[groups.groupOf(root)] = root;
        List<List<Integer>> children = new ArrayList<>(size);
        for (int rank = 0; rank < size; rank++) {
            children.add(new ArrayList<>());
        }
        for (int rank : preorder) {
            if (rank != root && heads[groups.groupOf(rank)] == rank) {
                children.get(heads[groups.groupOf(tree.parent(rank))]).add(rank);
            }
        }
        return new GroupRoutes(heads, RootedTree.partial(root, children));
    }

    /** The rank that multicasts in {@code group}. */
    int head(int group) {
        return heads[group];
    }

    /** The plan's tree between the heads only, rooted at the bcast's root. */
    RootedTree headsTree() {
        return headsTree;
    }
}
