package dev.canopy.topology.internal.tree;

import dev.canopy.topology.internal.graph.LatencyMatrix;

/**
 * For each sender, a binary min-heap of its measured out-links (fastest first, then the smaller
 * target index), built in O(n) when the sender first asks; targets that already have the message
 * are popped as they surface. A sender that is rarely asked never pays for ordering its whole row.
 */
final class NearestUninformed {

    private final LatencyMatrix latencies;
    private final boolean[] informed;
    private final int[][] heaps;
    private final int[] heapSize;

    /** @param informed which nodes have the message; read on every query, updated by the caller */
    NearestUninformed(LatencyMatrix latencies, boolean[] informed) {
        this.latencies = latencies;
        this.informed = informed;
        this.heaps = new int[latencies.size()][];
        this.heapSize = new int[latencies.size()];
    }

    /** The target of {@code sender}'s fastest measured link to a node without the message, or -1. */
    int of(int sender) {
        if (heaps[sender] == null) {
            heapify(sender);
        }
        int[] heap = heaps[sender];
        while (heapSize[sender] > 0 && informed[heap[0]]) {
            heap[0] = heap[--heapSize[sender]];
            siftDown(sender, 0);
        }
        return heapSize[sender] > 0 ? heap[0] : -1;
    }

    private void heapify(int sender) {
        int[] heap = new int[latencies.size()];
        int size = 0;
        for (int target = 0; target < latencies.size(); target++) {
            if (target != sender && latencies.linked(sender, target) && !informed[target]) {
                heap[size++] = target;
            }
        }
        heaps[sender] = heap;
        heapSize[sender] = size;
        for (int i = size / 2 - 1; i >= 0; i--) {
            siftDown(sender, i);
        }
    }

    private void siftDown(int sender, int start) {
        int[] heap = heaps[sender];
        int size = heapSize[sender];
        int i = start;
        while (true) {
            int smallest = i;
            int left = 2 * i + 1;
            if (left < size && before(sender, heap[left], heap[smallest])) {
                smallest = left;
            }
            if (left + 1 < size && before(sender, heap[left + 1], heap[smallest])) {
                smallest = left + 1;
            }
            if (smallest == i) {
                return;
            }
            int swap = heap[i];
            heap[i] = heap[smallest];
            heap[smallest] = swap;
            i = smallest;
        }
    }

    /** Whether link {@code sender -> a} is faster than {@code sender -> b}; ties go to the smaller index. */
    private boolean before(int sender, int a, int b) {
        double msA = latencies.latency(sender, a);
        double msB = latencies.latency(sender, b);
        return msA < msB || msA == msB && a < b;
    }
}
