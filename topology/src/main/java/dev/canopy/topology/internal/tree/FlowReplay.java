package dev.canopy.topology.internal.tree;

import java.util.Arrays;

/**
 * The {@link FlowControl} of every tree edge during a {@link BroadcastSimulation}: a node has one parent, so the
 * stream of a parent to a child is named by the child. Messages of one stream are replayed in send order; for each,
 * {@link #departureMs} says when its bytes may go onto the wire and {@link #arrived} records when they arrived,
 * which frees the credit or fetch room later messages wait for. Cost: O(1) amortised per message.
 */
final class FlowReplay {

    private final FlowControl flow;
    private final Stream[] streams;

    FlowReplay(FlowControl flow, int nodes) {
        this.flow = flow;
        this.streams = new Stream[nodes];
    }

    /**
     * When the body of a {@code bytes}-byte message to {@code child}, handed over at {@code handedMs}, leaves its
     * sender: at once when eager; else after its announcement went there and the request came back, no earlier than
     * the receiver had room to fetch it ahead or, for a body beyond that room, had received the message before.
     *
     * @param latencyMs one-way latency to the child; {@code backMs} from the child (credit, requests)
     */
    double departureMs(int child, long bytes, double handedMs, double latencyMs, double backMs) {
        Stream stream = stream(child);
        long payload = bytes + flow.messageCostBytes();
        stream.returnCreditBy(handedMs);
        if (payload <= flow.eagerLimitBytes() && stream.eagerOutstanding + payload <= flow.windowBytes()) {
            stream.pending(Kind.EAGER, payload);
            return handedMs;
        }
        double asked = handedMs + latencyMs;
        if (payload <= flow.fetchAheadBytes()) {
            asked = stream.roomToFetchBy(asked, payload, flow.fetchAheadBytes());
            stream.pending(Kind.FETCHED, payload);
        } else {
            asked = Math.max(asked, stream.lastArrivalMs);
            stream.pending(Kind.ASKED, payload);
        }
        return asked + backMs;
    }

    /**
     * The message {@link #departureMs} placed last on {@code child}'s stream reached the wire's end at
     * {@code wireArrivalMs}; returns when the child has it (no earlier than the message before it: receives
     * complete in order).
     */
    double arrived(int child, double wireArrivalMs, double backMs) {
        Stream stream = streams[child];
        double arrival = Math.max(wireArrivalMs, stream.lastArrivalMs);
        stream.lastArrivalMs = arrival;
        if (stream.pendingKind == Kind.EAGER) {
            stream.eager.add(arrival + backMs, stream.pendingBytes);
            stream.eagerOutstanding += stream.pendingBytes;
        } else if (stream.pendingKind == Kind.FETCHED) {
            stream.fetched.add(arrival, stream.pendingBytes);
            stream.fetchOutstanding += stream.pendingBytes;
        }
        return arrival;
    }

    private Stream stream(int child) {
        if (streams[child] == null) {
            streams[child] = new Stream();
        }
        return streams[child];
    }

    private enum Kind {
        EAGER,
        FETCHED,
        ASKED
    }

    /** One parent-to-child stream. */
    private static final class Stream {
        /** Eager messages not yet known to have their credit back: when it comes back, and how much. */
        final Releases eager = new Releases();
        /** Bodies fetched ahead: when they arrive (and free their room), and how large they are. */
        final Releases fetched = new Releases();
        long eagerOutstanding;
        long fetchOutstanding;
        double lastArrivalMs = Double.NEGATIVE_INFINITY;
        Kind pendingKind;
        long pendingBytes;

        void pending(Kind kind, long bytes) {
            pendingKind = kind;
            pendingBytes = bytes;
        }

        void returnCreditBy(double ms) {
            while (eager.hasNext() && eager.nextMs() <= ms) {
                eagerOutstanding -= eager.pollBytes();
            }
        }

        /** The first time from {@code ms} on when {@code bytes} more fit the fetch room of {@code room} bytes. */
        double roomToFetchBy(double ms, long bytes, long room) {
            double at = ms;
            while (fetched.hasNext() && (fetched.nextMs() <= at || fetchOutstanding + bytes > room)) {
                at = Math.max(at, fetched.nextMs());
                fetchOutstanding -= fetched.pollBytes();
            }
            return at;
        }
    }

    /** A queue of (time, bytes) in time order, on primitive arrays. */
    private static final class Releases {
        private double[] ms = new double[8];
        private long[] bytes = new long[8];
        private int head;
        private int tail;

        void add(double atMs, long size) {
            if (tail == ms.length) {
                ms = Arrays.copyOf(ms, tail * 2);
                bytes = Arrays.copyOf(bytes, tail * 2);
            }
            ms[tail] = atMs;
            bytes[tail++] = size;
        }

        boolean hasNext() {
            return head < tail;
        }

        double nextMs() {
            return ms[head];
        }

        long pollBytes() {
            return bytes[head++];
        }
    }
}
