package dev.canopy.topology.internal.tree;

import java.util.Arrays;

/**
 * The {@link FlowControl} of every tree edge during a {@link BroadcastSimulation}: a node has one parent, so the
 * stream of a parent to a child is named by the child. Messages of one stream are replayed in send order; for each,
 * {@link #departureMs} says when its bytes may go onto the wire and {@link #arrived} records when they arrived,
 * which frees the credit or fetch room later messages wait for. Cost: O(1) amortised per message; the streams'
 * state lives in primitive arrays by child (a replay of 10,000 processes makes millions of these calls).
 */
final class FlowReplay {

    private static final byte EAGER = 0;
    private static final byte FETCHED = 1;
    private static final byte ASKED = 2;

    private final FlowControl flow;
    /** Per stream: eager bytes whose credit is not known to be back, and bodies fetched ahead not yet arrived. */
    private final long[] eagerOutstanding;
    private final long[] fetchOutstanding;
    private final double[] lastArrivalMs;
    private final byte[] pendingKind;
    private final long[] pendingBytes;
    /** Per stream, in time order: when eager messages' credit comes back, and when fetched bodies arrive. */
    private final Releases eager;
    private final Releases fetched;

    FlowReplay(FlowControl flow, int nodes) {
        this.flow = flow;
        this.eagerOutstanding = new long[nodes];
        this.fetchOutstanding = new long[nodes];
        this.lastArrivalMs = new double[nodes];
        Arrays.fill(lastArrivalMs, Double.NEGATIVE_INFINITY);
        this.pendingKind = new byte[nodes];
        this.pendingBytes = new long[nodes];
        this.eager = new Releases(nodes);
        this.fetched = new Releases(nodes);
    }

    /**
     * When the body of a {@code bytes}-byte message to {@code child} leaves its sender. The runtime decides how a
     * message goes when it is submitted ({@code submittedMs}: a root submits all its segments at once, a relay each
     * segment as it arrives), with the credit back by then: eager, it leaves when the sender has written it
     * ({@code handedMs}); else its announcement goes at once and the body leaves once the request came back, no
     * earlier than the receiver had room to fetch it ahead or, for a body beyond that room, had received the message
     * before, and no earlier than the sender can write it.
     *
     * @param latencyMs one-way latency to the child; {@code backMs} from the child (credit, requests)
     */
    double departureMs(int child, long bytes, double submittedMs, double handedMs, double latencyMs, double backMs) {
        long payload = bytes + flow.messageCostBytes();
        while (eager.hasNext(child) && eager.nextMs(child) <= submittedMs) {
            eagerOutstanding[child] -= eager.pollBytes(child);
        }
        pendingBytes[child] = payload;
        if (payload <= flow.eagerLimitBytes() && eagerOutstanding[child] + payload <= flow.windowBytes()) {
            pendingKind[child] = EAGER;
            return handedMs;
        }
        double asked = submittedMs + latencyMs;
        if (payload <= flow.fetchAheadBytes()) {
            // the first time from the announcement on when the body fits the room left by earlier fetched bodies
            while (fetched.hasNext(child)
                    && (fetched.nextMs(child) <= asked || fetchOutstanding[child] + payload > flow.fetchAheadBytes())) {
                asked = Math.max(asked, fetched.nextMs(child));
                fetchOutstanding[child] -= fetched.pollBytes(child);
            }
            pendingKind[child] = FETCHED;
        } else {
            asked = Math.max(asked, lastArrivalMs[child]);
            pendingKind[child] = ASKED;
        }
        return Math.max(asked + backMs, handedMs);
    }

    /**
     * The message {@link #departureMs} placed last on {@code child}'s stream reached the wire's end at
     * {@code wireArrivalMs}; returns when the child has it (no earlier than the message before it: receives
     * complete in order).
     */
    double arrived(int child, double wireArrivalMs, double backMs) {
        double arrival = Math.max(wireArrivalMs, lastArrivalMs[child]);
        lastArrivalMs[child] = arrival;
        if (pendingKind[child] == EAGER) {
            eager.add(child, arrival + backMs, pendingBytes[child]);
            eagerOutstanding[child] += pendingBytes[child];
        } else if (pendingKind[child] == FETCHED) {
            fetched.add(child, arrival, pendingBytes[child]);
            fetchOutstanding[child] += pendingBytes[child];
        }
        return arrival;
    }

    /** Per stream, a queue of (time, bytes) in time order, on primitive arrays. */
    private static final class Releases {
        private final double[][] ms;
        private final long[][] bytes;
        private final int[] head;
        private final int[] tail;

        Releases(int streams) {
            ms = new double[streams][];
            bytes = new long[streams][];
            head = new int[streams];
            tail = new int[streams];
        }

        void add(int stream, double atMs, long size) {
            if (ms[stream] == null) {
                ms[stream] = new double[8];
                bytes[stream] = new long[8];
            } else if (tail[stream] == ms[stream].length) {
                ms[stream] = Arrays.copyOf(ms[stream], tail[stream] * 2);
                bytes[stream] = Arrays.copyOf(bytes[stream], tail[stream] * 2);
            }
            ms[stream][tail[stream]] = atMs;
            bytes[stream][tail[stream]++] = size;
        }

        boolean hasNext(int stream) {
            return head[stream] < tail[stream];
        }

        double nextMs(int stream) {
            return ms[stream][head[stream]];
        }

        long pollBytes(int stream) {
            return bytes[stream][head[stream]++];
        }
    }
}
