package dev.canopy.collectives.internal.engine;

import dev.canopy.collectives.internal.segmentation.PipelineSegmenter;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.Optional;

/**
 * How a bcast's bytes move from the root to every member: the layer under {@code Collectives.bcast}. The
 * collective (its sequence number, plan, abort handling) is the {@link Exchange}; the path decides the
 * carrier: the plan's point-to-point tree ({@link #pointToPoint}), or multicast inside the leaf groups
 * ({@code dev.canopy.collectives.internal.multicast.MulticastPath}). Algorithms do not branch on the carrier; a new
 * one (fabric multicast on real hardware, TLS links) is one more implementation.
 *
 * <p>Every member of a communicator uses the same kind of path (they agree when it is opened) and calls
 * {@link #bcast} on the communicator's context, in the order the collectives were started.
 */
public interface BroadcastPath extends AutoCloseable {

    /**
     * At the root, sends {@code data} to every member; elsewhere returns the root's bytes ({@code data} is
     * ignored). {@code tree} is the plan's tree rooted at the bcast's root; {@code pipeline} cuts large
     * messages into segments.
     */
    Future<Buffer> bcast(Exchange exchange, RootedTree tree, Buffer data, PipelineSegmenter pipeline);

    /** What carries the bytes: e.g. "point-to-point trees" or "multicast (emulated-ud) in 2 lan group(s) ...". */
    String description();

    /** Why multicast is not used although the level file asks for it; empty when it is used or not asked for. */
    default Optional<String> fallback() {
        return Optional.empty();
    }

    /**
     * Whether a scatter of {@code receivers} pieces of {@code bytesPerReceiver} bytes goes as one bcast on this path
     * of all the pieces packed together (each member copying out its own, {@code MulticastScatter}) rather than
     * down the plan's tree scatter. {@code bytesPerReceiver} -1: the sizes are known at the root only (scatterv);
     * the answer is then whether this path packs scatters at all, and the root's message says how its pieces go.
     * Every member gets the same answer for the same arguments.
     */
    default boolean packsScatter(long bytesPerReceiver, int receivers) {
        return false;
    }

    /** Frees what the path holds (a fabric endpoint, buffers); bcasts on it fail afterwards. Idempotent. */
    @Override
    default void close() {
    }

    /** The plan's pipelined point-to-point tree, standing in for multicast with {@code fallback} when given. */
    static BroadcastPath pointToPoint(Optional<String> fallback) {
        return new TreePath(fallback);
    }

    /** The plan's pipelined point-to-point tree. */
    static BroadcastPath pointToPoint() {
        return pointToPoint(Optional.empty());
    }

    /** Down the plan's tree, pipelined ({@link TreeBroadcast}). */
    record TreePath(Optional<String> fallback) implements BroadcastPath {

        @Override
        public Future<Buffer> bcast(Exchange exchange, RootedTree tree, Buffer data, PipelineSegmenter pipeline) {
            int bytes = data == null ? 0 : data.length();
            return new TreeBroadcast(exchange, tree, 0).run(data, pipeline.segmentBytes(bytes, tree.depth()));
        }

        @Override
        public String description() {
            return "point-to-point trees";
        }
    }
}
