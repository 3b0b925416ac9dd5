package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.internal.engine.BroadcastPath;
import dev.canopy.collectives.internal.engine.Exchange;
import dev.canopy.collectives.internal.engine.RankBlocks;
import dev.canopy.collectives.internal.engine.RootedTree;
import dev.canopy.collectives.internal.engine.TreeScatter;
import dev.canopy.collectives.internal.segmentation.PipelineSegmenter;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.List;

/**
 * scatter and scatterv as one bcast on the communicator's {@link BroadcastPath}: the root packs every piece into
 * one message ({@link PackedScatter}), the path multicasts it inside each LAN or cluster group, and every member
 * copies out its own piece. Called on the communicator's context, in start order, like the path's bcast.
 *
 * <p>scatter: every member knows the piece size, so every member asks {@link BroadcastPath#packsScatter} alike
 * and only packed scatters come here. scatterv: only the root knows the sizes, so the root decides (by its
 * largest piece) and its one message is either the packed pieces (their counts in its header: counts and data
 * in one broadcast, one flight instead of two) or a marker after which the plan's tree scatter carries them.
 */
public final class MulticastScatter {

    /** The step of the tree scatter after a TREE marker (the path itself uses steps 0 and 1). */
    static final int TREE_SCATTER_STEP = 2;

    private MulticastScatter() {
    }

    /** Packed, by the caller's agreed choice; {@code blocks} at the root only. */
    public static Future<Buffer> scatter(BroadcastPath path, Exchange exchange, RootedTree tree, List<Buffer> blocks,
            PipelineSegmenter pipeline) {
        boolean root = exchange.rank() == tree.root();
        return path.bcast(exchange, tree, root ? PackedScatter.pack(blocks) : null, pipeline)
                .compose(message -> finish(PackedScatter.unpack(message, exchange.size(), exchange.rank()), exchange,
                        tree, blocks));
    }

    /** Packed or by the tree, as the root decides from its pieces; {@code blocks} at the root only. */
    public static Future<Buffer> scatterv(BroadcastPath path, Exchange exchange, RootedTree tree, List<Buffer> blocks,
            PipelineSegmenter pipeline) {
        Buffer message = null;
        if (exchange.rank() == tree.root()) {
            if (blocks.size() != exchange.size()) {
                throw new IllegalArgumentException("scatterv needs one block per rank (" + exchange.size() + "), got "
                        + blocks.size());
            }
            long largest = blocks.stream().mapToLong(Buffer::length).max().orElse(0);
            message = path.packsScatter(largest, blocks.size()) ? PackedScatter.pack(blocks) : PackedScatter.byTree();
        }
        return path.bcast(exchange, tree, message, pipeline)
                .compose(received -> finish(PackedScatter.unpack(received, exchange.size(), exchange.rank()), exchange,
                        tree, blocks));
    }

    private static Future<Buffer> finish(PackedScatter.Received received, Exchange exchange, RootedTree tree,
            List<Buffer> blocks) {
        if (!received.byTree()) {
            return Future.succeededFuture(received.piece());
        }
        boolean root = exchange.rank() == tree.root();
        return new TreeScatter(exchange, tree, TREE_SCATTER_STEP).run(root ? RankBlocks.ofRanks(blocks) : null);
    }
}
