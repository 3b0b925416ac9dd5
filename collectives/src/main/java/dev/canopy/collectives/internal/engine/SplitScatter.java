package dev.canopy.collectives.internal.engine;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The model-based scatter of segmentation.md: above the leap S the scatter runs as {@code parts}
 * scatters of a slice of every block, one after the other; part i uses step i. One part is a
 * plain tree scatter.
 */
public final class SplitScatter {

    private final Exchange exchange;
    private final RootedTree tree;
    private final int parts;

    public SplitScatter(Exchange exchange, RootedTree tree, int parts) {
        if (parts < 1 || parts > 0xFFFF) {
            throw new IllegalArgumentException("a scatter splits into 1 to 65535 parts, not " + parts);
        }
        this.exchange = exchange;
        this.tree = tree;
        this.parts = parts;
    }

    /** {@code blocks}: one per rank at the root, null elsewhere. Completes with this rank's block. */
    public Future<Buffer> run(List<Buffer> blocks) {
        Buffer mine = Buffer.buffer();
        Future<Void> chain = Future.succeededFuture();
        for (int part = 0; part < parts; part++) {
            int index = part;
            chain = chain.compose(previous -> new TreeScatter(exchange, tree, index).run(slices(blocks, index)))
                    .map(slice -> {
                        mine.appendBuffer(slice);
                        return null;
                    });
        }
        return chain.map(mine);
    }

    private RankBlocks slices(List<Buffer> blocks, int part) {
        if (blocks == null) {
            return null;
        }
        List<Buffer> slices = new ArrayList<>(blocks.size());
        for (Buffer block : blocks) {
            int sliceBytes = (block.length() + parts - 1) / parts;
            slices.add(block.getBuffer(Math.min(block.length(), part * sliceBytes),
                    Math.min(block.length(), (part + 1) * sliceBytes)));
        }
        return RankBlocks.ofRanks(slices);
    }
}
