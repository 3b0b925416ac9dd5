package dev.canopy.topology.internal.tree;

/**
 * A min-heap of node indices by a time per node, ties by the lower index, each node in it at most once:
 * the event queue of {@link BroadcastSimulation} without an object per event (a replay of a 10,000-process
 * plan queues millions of sends).
 */
final class NodeHeap {

    private final int[] heap;
    private final double[] key;
    private int size;

    NodeHeap(int nodes) {
        heap = new int[nodes];
        key = new double[nodes];
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Queues {@code node}, which must not be queued, at {@code timeMs}. */
    void add(int node, double timeMs) {
        key[node] = timeMs;
        int at = size++;
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (!before(node, heap[parent])) {
                break;
            }
            heap[at] = heap[parent];
            at = parent;
        }
        heap[at] = node;
    }

    /** Removes and returns the node with the earliest time. */
    int poll() {
        int first = heap[0];
        int last = heap[--size];
        int at = 0;
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(heap[child + 1], heap[child])) {
                child++;
            }
            if (!before(heap[child], last)) {
                break;
            }
            heap[at] = heap[child];
            at = child;
        }
        if (size > 0) {
            heap[at] = last;
        }
        return first;
    }

    private boolean before(int a, int b) {
        return key[a] != key[b] ? key[a] < key[b] : a < b;
    }
}
