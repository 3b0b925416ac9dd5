package dev.canopy.collectives.internal.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A spanning tree over the ranks of a communicator, as a collective executes it: every rank's
 * parent and its children in send order. Immutable; validated on construction (one root, every
 * rank reaches it, children lists agree with parents).
 */
public final class RootedTree {

    public static final int NO_PARENT = -1;

    private final int root;
    private final int[] parent;
    private final int[][] children;
    private final int depth;

    private RootedTree(int root, int[] parent, int[][] children) {
        this.root = root;
        this.parent = parent;
        this.children = children;
        this.depth = computeDepth();
    }

    /**
     * Builds the tree from each rank's children in send order; the parents follow. A rank listed
     * twice, a missing rank or a cycle is an {@link IllegalArgumentException} naming the rank.
     */
    public static RootedTree fromChildren(int root, List<List<Integer>> childrenByRank) {
        int size = childrenByRank.size();
        if (root < 0 || root >= size) {
            throw new IllegalArgumentException("root " + root + " is not a rank of a " + size + "-rank tree");
        }
        int[] parent = new int[size];
        Arrays.fill(parent, Integer.MIN_VALUE);
        parent[root] = NO_PARENT;
        int[][] children = new int[size][];
        for (int rank = 0; rank < size; rank++) {
            children[rank] = childrenByRank.get(rank).stream().mapToInt(Integer::intValue).toArray();
            for (int child : children[rank]) {
                if (child < 0 || child >= size || parent[child] != Integer.MIN_VALUE) {
                    throw new IllegalArgumentException("rank " + child + " appears as a child twice, as the root's"
                            + " child or outside 0.." + (size - 1) + " in the tree rooted at " + root);
                }
                parent[child] = rank;
            }
        }
        for (int rank = 0; rank < size; rank++) {
            if (parent[rank] == Integer.MIN_VALUE) {
                throw new IllegalArgumentException("rank " + rank + " has no parent in the tree rooted at " + root);
            }
        }
        return new RootedTree(root, parent, children);
    }

    /**
     * A tree over some of the ranks only (e.g. the coordinators a message crosses the WAN between):
     * ranks that are neither the root nor anyone's child and have no children of their own are outside
     * it ({@link #contains} is false, their parent {@link #NO_PARENT}). Validated like
     * {@link #fromChildren}: a rank listed twice or a cycle is an {@link IllegalArgumentException}.
     */
    public static RootedTree partial(int root, List<List<Integer>> childrenByRank) {
        int size = childrenByRank.size();
        if (root < 0 || root >= size) {
            throw new IllegalArgumentException("root " + root + " is not a rank of a " + size + "-rank tree");
        }
        int[] parent = new int[size];
        Arrays.fill(parent, NO_PARENT);
        int[][] children = new int[size][];
        for (int rank = 0; rank < size; rank++) {
            children[rank] = childrenByRank.get(rank).stream().mapToInt(Integer::intValue).toArray();
            for (int child : children[rank]) {
                if (child < 0 || child >= size || child == root || parent[child] != NO_PARENT) {
                    throw new IllegalArgumentException("rank " + child + " appears as a child twice, as the root's"
                            + " child or outside 0.." + (size - 1) + " in the tree rooted at " + root);
                }
                parent[child] = rank;
            }
        }
        for (int rank = 0; rank < size; rank++) {
            if (rank != root && parent[rank] == NO_PARENT && children[rank].length > 0) {
                throw new IllegalArgumentException("rank " + rank + " has children but no parent in the tree rooted at "
                        + root);
            }
        }
        return new RootedTree(root, parent, children);
    }

    /** Whether {@code rank} is in the tree: always for {@link #fromChildren}, not for ranks outside a {@link #partial} one. */
    public boolean contains(int rank) {
        return rank == root || parent[rank] != NO_PARENT;
    }

    public int root() {
        return root;
    }

    public int size() {
        return parent.length;
    }

    public int parent(int rank) {
        return parent[rank];
    }

    /** The children of {@code rank} in the order it sends to them. */
    public int[] children(int rank) {
        return children[rank].clone();
    }

    /** The number of hops from the root to the deepest rank. */
    public int depth() {
        return depth;
    }

    /** The ranks of the subtree under {@code rank}, itself included, in ascending order. */
    public int[] subtree(int rank) {
        List<Integer> ranks = new ArrayList<>();
        List<Integer> frontier = new ArrayList<>(List.of(rank));
        while (!frontier.isEmpty()) {
            int next = frontier.remove(frontier.size() - 1);
            ranks.add(next);
            for (int child : children[next]) {
                frontier.add(child);
            }
        }
        return ranks.stream().mapToInt(Integer::intValue).sorted().toArray();
    }

    private int computeDepth() {
        int deepest = 0;
        for (int rank = 0; rank < parent.length; rank++) {
            int hops = 0;
            for (int at = rank; parent[at] != NO_PARENT; at = parent[at]) {
                if (++hops > parent.length) {
                    throw new IllegalArgumentException("ranks " + rank + " and its ancestors form a cycle that"
                            + " does not reach root " + root);
                }
            }
            deepest = Math.max(deepest, hops);
        }
        return deepest;
    }

    /**
     * Whether {@code other} has the same root and gives every rank the same children in the same send order (trees
     * otherwise compare by identity: caches keyed by tree stay O(1)).
     */
    public boolean sameAs(RootedTree other) {
        return other.root == root && Arrays.deepEquals(other.children, children);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("tree(root " + root + ":");
        for (int rank = 0; rank < parent.length; rank++) {
            if (children[rank].length > 0) {
                text.append(' ').append(rank).append("->").append(Arrays.toString(children[rank]));
            }
        }
        return text.append(')').toString();
    }
}
