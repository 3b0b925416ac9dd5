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
            receiveRest(index + 1, segments, assembled, sends, done);
        });
    }

    private Future<Void> sendAll(Buffer data, int segmentBytes) {
        int segments = segmentCount(data.length(), segmentBytes);
        List<Future<Void>> sends = new ArrayList<>();
        for (int index = 0; index < segments; index++) {
            int from = index * segmentBytes;
            Buffer slice = data.getBuffer(from, Math.min(data.length(), from + segmentBytes));
            Buffer body = index == 0
                    ? Buffer.buffer(PREFIX + slice.length()).appendInt(data.length()).appendInt(segmentBytes).appendBuffer(slice)
                    : slice;
            sends.addAll(forward(body));
        }
        return Future.all(sends).mapEmpty();
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
