package dev.canopy.collectives.internal.engine;

import dev.canopy.collectives.data.MalformedMessageException;
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
 * <p>The first segment's body starts with {@code int totalBytes, int segmentBytes} ({@link Prefix}),
 * so receivers learn how many segments follow and how long each is: segment i holds bytes
 * {@code i * segmentBytes ..} of the message, {@code segmentBytes} of them except the last. A
 * receiver checks the prefix and every segment's length against it before it forwards or keeps a
 * byte ({@link MalformedMessageException} otherwise), and reserves memory for the message as
 * segments arrive, not as the prefix announces: a forged prefix cannot make it allocate 2 GiB.
 */
public final class TreeBroadcast {

    private static final int PREFIX = 2 * Integer.BYTES;
    /** Reserved at once for a message; larger ones grow (doubling) as their segments arrive. */
    static final int PREALLOCATED_BYTES = 64 << 20;

    /**
     * What the first segment of a broadcast announces:
     * <pre>
     *  offset  size  field
     *       0     4  totalBytes    the message length, >= 0
     *       4     4  segmentBytes  the length of every segment but the last, >= 1
     *       8     -  the first segment, min(totalBytes, segmentBytes) bytes
     * </pre>
     */
    record Prefix(int totalBytes, int segmentBytes) {

        /** Reads and checks the prefix of a first segment's body. */
        static Prefix decode(Buffer first) {
            if (first.length() < PREFIX) {
                throw new MalformedMessageException("first broadcast segment of " + first.length()
                        + " bytes lacks its " + PREFIX + "-byte prefix");
            }
            int total = first.getInt(0);
            int segment = first.getInt(Integer.BYTES);
            if (total < 0 || segment < 1) {
                throw new MalformedMessageException("broadcast of " + total + " bytes in segments of " + segment
                        + " bytes; the length must be >= 0 and the segment size >= 1");
            }
            Prefix prefix = new Prefix(total, segment);
            prefix.checkSegment(0, first.length() - PREFIX);
            return prefix;
        }

        int segments() {
            return Math.max(1, (int) ((totalBytes + (long) segmentBytes - 1) / segmentBytes));
        }

        /** The length segment {@code index} must have. */
        int segmentLength(int index) {
            return (int) Math.min(segmentBytes, totalBytes - (long) index * segmentBytes);
        }

        void checkSegment(int index, int length) {
            if (length != segmentLength(index)) {
                throw new MalformedMessageException("broadcast segment " + index + " of " + segments() + " has "
                        + length + " bytes where a " + totalBytes + "-byte message in " + segmentBytes
                        + "-byte segments has " + segmentLength(index));
            }
        }

        Buffer encode(Buffer firstSegment) {
            return Buffer.buffer(PREFIX + firstSegment.length()).appendInt(totalBytes).appendInt(segmentBytes)
                    .appendBuffer(firstSegment);
        }
    }

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
        int parent = tree.parent(me);
        return exchange.receive(parent, step).compose(first -> {
            Prefix prefix;
            try {
                prefix = Prefix.decode(first);
            } catch (MalformedMessageException e) {
                throw exchange.malformed(parent, step, e.getMessage());
            }
            Reassembly assembled = new Reassembly(prefix.totalBytes());
            assembled.append(first.slice(PREFIX, first.length()));
            List<Future<Void>> sends = new ArrayList<>(forward(first));
            Promise<Buffer> done = Promise.promise();
            receiveRest(1, prefix, assembled, sends, done);
            return done.future();
        });
    }

    private void receiveRest(int index, Prefix prefix, Reassembly assembled, List<Future<Void>> sends,
            Promise<Buffer> done) {
        if (index >= prefix.segments()) {
            Future.all(sends).map(assembled.whole()).onComplete(done);
            return;
        }
        int parent = tree.parent(exchange.rank());
        exchange.receive(parent, step).onComplete(received -> {
            if (received.failed()) {
                done.fail(received.cause());
                return;
            }
            Buffer segment = received.result();
            try {
                prefix.checkSegment(index, segment.length());
            } catch (MalformedMessageException e) {
                done.fail(exchange.malformed(parent, step, e.getMessage()));
                return;
            }
            assembled.append(segment);
            sends.addAll(forward(segment));
            SegmentLoop.continueWith(index + 1, () -> receiveRest(index + 1, prefix, assembled, sends, done));
        });
    }

    /**
     * The message being received, in one buffer: reserved at its full length up to
     * {@link #PREALLOCATED_BYTES}, beyond that doubled as segments arrive (each byte copied at most
     * about twice), so memory follows the bytes received, not the length a prefix claims.
     */
    private static final class Reassembly {
        private final int totalBytes;
        private int capacity;
        private Buffer bytes;

        Reassembly(int totalBytes) {
            this.totalBytes = totalBytes;
            this.capacity = Math.min(totalBytes, PREALLOCATED_BYTES);
            this.bytes = Buffer.buffer(capacity);
        }

        /** Appends a segment whose length the prefix allows, so the whole never exceeds {@code totalBytes}. */
        void append(Buffer segment) {
            int needed = bytes.length() + segment.length();
            if (needed > capacity) {
                capacity = (int) Math.min(totalBytes, Math.max(needed, 2L * capacity));
                bytes = Buffer.buffer(capacity).appendBuffer(bytes);
            }
            bytes.appendBuffer(segment);
        }

        Buffer whole() {
            return bytes;
        }
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
            Buffer body = first ? new Prefix(totalBytes, segmentBytes).encode(segment) : segment;
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

}
