package dev.canopy.topology.internal.tree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * An immutable spanning tree over a node list, rooted at the node that holds the message, with each
 * parent's children in send order (the first child is sent to first). Indices refer to
 * {@link #nodes()}, which is the node list of the {@link dev.canopy.topology.internal.graph.LatencyMatrix}
 * the tree was built on. The constructor checks that every node is reached exactly once.
 */
public final class Tree {

    private final String algorithm;
    private final List<String> nodes;
    private final int root;
    private final int[] parent;
    private final int[][] children;

    /**
     * @param children for each node, its children in send order (copied)
     * @throws IllegalStateException when the child lists do not form one tree spanning all nodes
     */
    public Tree(String algorithm, List<String> nodes, int root, int[][] children) {
        this.algorithm = algorithm;
        this.nodes = List.copyOf(nodes);
        this.root = root;
        int n = nodes.size();
        if (children.length != n || root < 0 || root >= n) {
            throw new IllegalStateException(algorithm + ": " + children.length + " child lists and root " + root
                    + " for " + n + " nodes");
        }
        this.children = new int[n][];
        this.parent = new int[n];
        Arrays.fill(parent, -2);
        parent[root] = -1;
        for (int p = 0; p < n; p++) {
            this.children[p] = children[p].clone();
            for (int child : this.children[p]) {
                if (child < 0 || child >= n || child == root || parent[child] != -2) {
                    throw new IllegalStateException(algorithm + ": node " + describe(child)
                            + " is the root, out of range or has two parents");
                }
                parent[child] = p;
            }
        }
        requireSpanning();
    }

    /** The child lists of a parent array (-1 at the root), children in increasing index order. */
    static int[][] childLists(int[] parent, int root) {
        int n = parent.length;
        int[] count = new int[n];
        for (int v = 0; v < n; v++) {
            if (v != root) {
                count[parent[v]]++;
            }
        }
        int[][] children = new int[n][];
        for (int v = 0; v < n; v++) {
            children[v] = new int[count[v]];
            count[v] = 0;
        }
        for (int v = 0; v < n; v++) {
            if (v != root) {
                children[parent[v]][count[parent[v]]++] = v;
            }
        }
        return children;
    }

    private void requireSpanning() {
        int reached = preorder().length;
        if (reached != nodes.size()) {
            for (int v = 0; v < nodes.size(); v++) {
                if (parent[v] == -2) {
                    throw new IllegalStateException(algorithm + ": node " + nodes.get(v) + " has no parent");
                }
            }
            throw new IllegalStateException(algorithm + ": child lists contain a cycle; " + reached + " of "
                    + nodes.size() + " nodes reachable from " + nodes.get(root));
        }
    }

    private String describe(int index) {
        return index >= 0 && index < nodes.size() ? nodes.get(index) : "#" + index;
    }

    /** The builder that made this tree, e.g. {@code hlot}. */
    public String algorithm() {
        return algorithm;
    }

    public List<String> nodes() {
        return nodes;
    }

    public int size() {
        return nodes.size();
    }

    public String root() {
        return nodes.get(root);
    }

    public int rootIndex() {
        return root;
    }

    /** Parent index of {@code node}, or -1 for the root. */
    public int parentIndex(int node) {
        return parent[node];
    }

    /** Children of {@code node} in send order (a copy). */
    public int[] childIndices(int node) {
        return children[node].clone();
    }

    public int childCount(int node) {
        return children[node].length;
    }

    /** The {@code k}-th child (0-based) of {@code node} in send order. */
    public int child(int node, int k) {
        return children[node][k];
    }

    /** Nodes in breadth-first order from the root, each parent's children in send order. */
    public int[] preorder() {
        int[] order = new int[nodes.size()];
        boolean[] seen = new boolean[nodes.size()];
        int head = 0;
        int tail = 0;
        order[tail++] = root;
        seen[root] = true;
        while (head < tail) {
            int v = order[head++];
            for (int child : children[v]) {
                if (seen[child] || tail == order.length) {
                    return Arrays.copyOf(order, tail);
                }
                seen[child] = true;
                order[tail++] = child;
            }
        }
        return Arrays.copyOf(order, tail);
    }

    public Optional<String> parent(String node) {
        int p = parent[indexOf(node)];
        return p < 0 ? Optional.empty() : Optional.of(nodes.get(p));
    }

    public List<String> children(String node) {
        int[] list = children[indexOf(node)];
        List<String> names = new ArrayList<>(list.length);
        for (int child : list) {
            names.add(nodes.get(child));
        }
        return List.copyOf(names);
    }

    /** All edges, parents in breadth-first order and each parent's children in send order. */
    public List<Edge> edges() {
        List<Edge> edges = new ArrayList<>(nodes.size() - 1);
        for (int p : preorder()) {
            for (int child : children[p]) {
                edges.add(new Edge(p, child));
            }
        }
        return List.copyOf(edges);
    }

    /** Depth of the deepest node (0 for a single node). */
    public int height() {
        int[] depth = new int[nodes.size()];
        int max = 0;
        for (int v : preorder()) {
            if (v != root) {
                depth[v] = depth[parent[v]] + 1;
                max = Math.max(max, depth[v]);
            }
        }
        return max;
    }

    private int indexOf(String node) {
        int index = nodes.indexOf(node);
        if (index < 0) {
            throw new IllegalArgumentException("'" + node + "' is not a node of this tree");
        }
        return index;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Tree that && algorithm.equals(that.algorithm) && nodes.equals(that.nodes)
                && root == that.root && Arrays.deepEquals(children, that.children);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * algorithm.hashCode() + nodes.hashCode()) + Arrays.deepHashCode(children);
    }

    @Override
    public String toString() {
        return algorithm + " tree rooted at " + root() + " over " + nodes.size() + " nodes";
    }

    /** A tree edge by node index: {@code parent} sends to {@code child}. */
    public record Edge(int parent, int child) {
    }
}
