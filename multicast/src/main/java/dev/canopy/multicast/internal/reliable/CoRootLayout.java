package dev.canopy.multicast.internal.reliable;

/**
 * Who does what in one root's stream. Ranks are numbered relative to the root ({@code rel = (rank -
 * root) mod n}) and cut into sub-groups of {@code s}: sub-group {@code k} holds {@code rel} in
 * {@code [k s, (k+1) s)}; its first member is its head (the root for {@code k = 0}, a co-root
 * otherwise) and the others are its leaves. The heads form a binomial tree rooted at the root, along
 * which the packets travel reliably. A leaf acknowledges to its head only.
 */
final class CoRootLayout {

    private final int size;
    private final int root;
    private final int subGroupSize;
    private final int groups;

    CoRootLayout(int size, int root, int subGroupSize) {
        if (subGroupSize < 1 || root < 0 || root >= size) {
            throw new IllegalArgumentException("co-root layout of " + size + " ranks, root " + root
                    + ", sub-groups of " + subGroupSize);
        }
        this.size = size;
        this.root = root;
        this.subGroupSize = subGroupSize;
        this.groups = (size + subGroupSize - 1) / subGroupSize;
    }

    /** The root of the stream this layout serves. */
    int root() {
        return root;
    }

    /** The root or a co-root: the head of a sub-group. */
    boolean isHead(int rank) {
        return relative(rank) % subGroupSize == 0;
    }

    /** The head a member acknowledges to (a head's own parent is the root). */
    int parentOf(int rank) {
        int rel = relative(rank);
        return isHead(rank) ? root : absolute(rel - rel % subGroupSize);
    }

    /** The leaves of a head's sub-group. */
    int[] leavesOf(int head) {
        int rel = relative(head);
        int end = Math.min(rel + subGroupSize, size);
        int[] leaves = new int[end - rel - 1];
        for (int i = 0; i < leaves.length; i++) {
            leaves[i] = absolute(rel + 1 + i);
        }
        return leaves;
    }

    /** The heads a head sends every packet to reliably: its children in the binomial tree of heads. */
    int[] forwardChildrenOf(int head) {
        int index = relative(head) / subGroupSize;
        int first = index == 0 ? 1 : Integer.highestOneBit(index) << 1;
        int count = 0;
        for (long bit = first; index + bit < groups; bit <<= 1) {
            count++;
        }
        int[] children = new int[count];
        long bit = first;
        for (int i = 0; i < count; i++, bit <<= 1) {
            children[i] = absolute((int) ((index + bit) * subGroupSize));
        }
        return children;
    }

    /** The co-roots: every head but the root. */
    int[] coRoots() {
        int[] heads = new int[groups - 1];
        for (int k = 1; k < groups; k++) {
            heads[k - 1] = absolute(k * subGroupSize);
        }
        return heads;
    }

    private int relative(int rank) {
        return Math.floorMod(rank - root, size);
    }

    private int absolute(int rel) {
        return (rel + root) % size;
    }
}
