package dev.canopy.collectives.internal.engine;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.data.MalformedMessageException;
import dev.canopy.collectives.reduce.PartialReduction;
import dev.canopy.collectives.reduce.ReduceOp;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reduce up a tree, pipelined: the vector is cut into segments of whole elements, and every rank
 * combines segment i of its own vector with segment i of each child's partial result and sends
 * it to its parent before it handles segment i + 1, so a deep tree reduces a long vector in about
 * one vector time plus one segment time per hop. Partial results keep rank runs apart where the
 * operator is not commutative (see {@link PartialReduction}), so any tree gives the rank-ordered
 * result.
 *
 * <p>Every member cuts its vector the same way from its length; each segment's body is
 * {@code int vectorBytes} followed by the encoded partial result, so a member whose vector length
 * differs from its child's fails the collective naming both instead of mixing segments. A child's
 * partial result must be what its subtree sends ({@link PartialReduction#requireSubtree}: its ranks,
 * and for element-wise operators values of the segment's length), or the collective fails with a
 * {@link MalformedMessageException}.
 */
public final class TreeReduce {

    private final Exchange exchange;
    private final RootedTree tree;
    private final int step;

    public TreeReduce(Exchange exchange, RootedTree tree, int step) {
        this.exchange = exchange;
        this.tree = tree;
        this.step = step;
    }

    /**
     * The segment size for reducing {@code vectorBytes} of {@code type} with {@code op}: the
     * {@code preferredBytes} the cost model chose, cut down to whole elements, or the whole vector
     * when the operator only works on whole vectors.
     */
    public static int segmentBytes(int vectorBytes, int preferredBytes, ElementType type, ReduceOp op) {
        if (!op.elementwise() || preferredBytes >= vectorBytes) {
            return Math.max(1, vectorBytes);
        }
        return Math.max(type.size(), preferredBytes / type.size() * type.size());
    }

    /** Completes with the result at the root and empty elsewhere. */
    public Future<Optional<Buffer>> run(Buffer mine, ElementType type, ReduceOp op, int segmentBytes) {
        return run(mine, type, op, segmentBytes, segment -> { });
    }

    /**
     * Like {@link #run(Buffer, ElementType, ReduceOp, int)}; at the root, {@code reducedSegment} also
     * gets each segment of the result, in order, as soon as it is complete (an allreduce starts
     * broadcasting it while later segments are still being reduced).
     */
    public Future<Optional<Buffer>> run(Buffer mine, ElementType type, ReduceOp op, int segmentBytes,
            Consumer<Buffer> reducedSegment) {
        int segments = segmentCount(mine.length(), segmentBytes);
        Buffer result = exchange.rank() == tree.root() ? Buffer.buffer(mine.length()) : null;
        List<Future<Void>> sends = new ArrayList<>();
        Promise<Void> reduced = Promise.promise();
        reduceSegment(0, segments, new Vector(mine, type, op, segmentBytes), result, reducedSegment, sends, reduced);
        return reduced.future()
                .compose(done -> Future.all(sends))
                .map(done -> Optional.ofNullable(result));
    }

    private void reduceSegment(int index, int segments, Vector vector, Buffer result, Consumer<Buffer> reducedSegment,
            List<Future<Void>> sends, Promise<Void> reduced) {
        if (index == segments) {
            reduced.complete();
            return;
        }
        int me = exchange.rank();
        List<Future<Buffer>> fromChildren = new ArrayList<>();
        for (int child : tree.children(me)) {
            fromChildren.add(exchange.receive(child, step));
        }
        Future.all(fromChildren).onComplete(all -> {
            if (all.failed()) {
                reduced.fail(all.cause());
                return;
            }
            try {
                PartialReduction partial = PartialReduction.of(me, vector.segment(index));
                int[] children = tree.children(me);
                for (int i = 0; i < children.length; i++) {
                    partial = partial.merge(vector.fromChild(children[i], fromChildren.get(i).result(), index),
                            vector.op, vector.type);
                }
                if (result != null) {
                    Buffer segment = partial.result();
                    result.appendBuffer(segment);
                    reducedSegment.accept(segment);
                } else {
                    sends.add(exchange.send(tree.parent(me), step, vector.toParent(partial)));
                }
            } catch (RuntimeException e) {
                reduced.fail(e);
                return;
            }
            SegmentLoop.continueWith(index + 1,
                    () -> reduceSegment(index + 1, segments, vector, result, reducedSegment, sends, reduced));
        });
    }

    private static int segmentCount(int total, int segmentBytes) {
        return Math.max(1, (total + segmentBytes - 1) / segmentBytes);
    }

    /** This member's vector, how it is cut, and the framing of its segments. */
    private final class Vector {
        private final Buffer data;
        private final ElementType type;
        private final ReduceOp op;
        private final int segmentBytes;

        Vector(Buffer data, ElementType type, ReduceOp op, int segmentBytes) {
            this.data = data;
            this.type = type;
            this.op = op;
            this.segmentBytes = segmentBytes;
        }

        /**
         * A slice of the member's vector, which must not change while the reduction runs; what
         * outlives the reduction (the result, the encodings sent) is copied from it.
         */
        Buffer segment(int index) {
            int from = Math.min(data.length(), index * segmentBytes);
            return data.slice(from, Math.min(data.length(), from + segmentBytes));
        }

        Buffer toParent(PartialReduction partial) {
            return partial.encodeTo(Buffer.buffer(Integer.BYTES + partial.encodedLength()).appendInt(data.length()));
        }

        PartialReduction fromChild(int child, Buffer body, int index) {
            if (body.length() < Integer.BYTES) {
                throw exchange.malformed(child, step, "reduce segment of " + body.length()
                        + " bytes lacks its vector length");
            }
            int childBytes = body.getInt(0);
            if (childBytes != data.length()) {
                throw new IllegalArgumentException(exchange.operation().displayName() + ": rank " + child
                        + " reduces a vector of " + childBytes + " bytes where rank " + exchange.rank() + " has "
                        + data.length() + "; every member must pass vectors of one length");
            }
            // The body is this reduction's own copy and nothing changes it: decode it in place.
            try {
                return PartialReduction.decode(body.slice(Integer.BYTES, body.length())).requireSubtree(
                        tree.subtree(child), op.commutativity(), op.elementwise() ? segment(index).length() : -1);
            } catch (MalformedMessageException e) {
                throw exchange.malformed(child, step, e.getMessage());
            }
        }
    }
}
