package dev.canopy.collectives.engine;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Broadcast down a tree, pipelined: the root cuts the message into segments and every rank
 * forwards each segment to its children as soon as it arrives, so a deep tree carries a large
 * message in about one message time plus one segment time per hop.
 *
 * <p>The first segment's body starts with {@code int totalBytes, int segmentBytes}, so receivers
 * learn how many segments follow.
 */
public final class TreeBroadcast {

    private static final int PREFIX = 2 * Integer.BYTES;

    private final Exchange exchange;
    private final RootedTree tree;
    private final int step;

    public TreeBroadcast(Exchange exchange, RootedTree tree, int step) {
        this.exchange = exchange;
        this.tree = tree;
        this.step = step;
    }

    /** At the root, sends {@code data} in segments of {@code segmentBytes}; elsewhere {@code data} is ignored. */
    public Future<Buffer> run(Buffer data, int segmentBytes) {
        int me = exchange.rank();
        if (me == tree.root()) {
            return sendAll(data, Math.max(1, segmentBytes)).map(data);
        }
        return exchange.receive(tree.parent(me), step).compose(first -> {
            int total = first.getInt(0);
            int segment = first.getInt(Integer.BYTES);
            int segments = segmentCount(total, segment);
            Buffer assembled = Buffer.buffer(total).appendBuffer(first, PREFIX, first.length() - PREFIX);
            List<Future<Void>> sends = new ArrayList<>(forward(first));
            Promise<Buffer> done = Promise.promise();
            receiveRest(1, segments, assembled, sends, done);
            return done.future();
        });
    }

    private void receiveRest(int index, int segments, Buffer assembled, List<Future<Void>> sends, Promise<Buffer> done) {
        if (index >= segments) {
            Future.all(sends).map(assembled).onComplete(done);
            return;
        }
        exchange.receive(tree.parent(exchange.rank()), step).onComplete(received -> {
            if (received.failed()) {
                done.fail(received.cause());
                return;
            }
            assembled.appendBuffer(received.result());
            sends.addAll(forward(received.result()));
            SegmentLoop.continueWith(index + 1, () -> receiveRest(index + 1, segments, assembled, sends, done));
        });
    }

    private Future<Void> sendAll(Buffer data, int segmentBytes) {
        RootFeed feed = feed(data.length(), segmentBytes);
        for (int from = 0; from < data.length() || from == 0; from += segmentBytes) {
            feed.send(data.getBuffer(from, Math.min(data.length(), from + segmentBytes)));
        }
        return feed.sent();
    }

    /**
     * The root's side of a broadcast whose segments become ready one by one (an allreduce broadcasts
     * each reduced segment as soon as it has it); members other than the root use {@link #run}.
     */
    public RootFeed feed(int totalBytes, int segmentBytes) {
        return new RootFeed(totalBytes, segmentBytes);
    }

    /** Sends the segments of a {@code totalBytes} message, in order, to the root's children. */
    public final class RootFeed {
        private final int totalBytes;
        private final int segmentBytes;
        private final List<Future<Void>> sends = new ArrayList<>();
        private boolean first = true;

        private RootFeed(int totalBytes, int segmentBytes) {
            this.totalBytes = totalBytes;
            this.segmentBytes = segmentBytes;
        }

        /** Sends the next segment: {@code segmentBytes} long, the last one possibly shorter. */
        public void send(Buffer segment) {
            Buffer body = first
                    ? Buffer.buffer(PREFIX + segment.length()).appendInt(totalBytes).appendInt(segmentBytes)
                            .appendBuffer(segment)
                    : segment;
            first = false;
            sends.addAll(forward(body));
        }

        /** Completes once every segment sent so far has been handed to the transport. */
        public Future<Void> sent() {
            return Future.all(sends).mapEmpty();
        }
    }

    private List<Future<Void>> forward(Buffer body) {
        List<Future<Void>> sends = new ArrayList<>();
        for (int child : tree.children(exchange.rank())) {
            sends.add(exchange.send(child, step, body));
        }
        return sends;
    }

    private static int segmentCount(int total, int segmentBytes) {
        return Math.max(1, (total + segmentBytes - 1) / segmentBytes);
    }
}
