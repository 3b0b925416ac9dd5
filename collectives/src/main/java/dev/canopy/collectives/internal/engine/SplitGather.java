package dev.canopy.collectives.internal.engine;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The model-based gather of segmentation.md: for a medium message the gather runs as {@code parts}
 * gathers of a slice each, with a barrier before each one. The barrier is the point: it keeps the
 * senders from congesting the root all at once. One part is a plain tree gather.
 *
 * <p>Part i uses steps 3i and 3i+1 for its barrier and 3i+2 for its gather.
 */
public final class SplitGather {

    private final Exchange exchange;
    private final RootedTree tree;
    private final int parts;

    public SplitGather(Exchange exchange, RootedTree tree, int parts) {
        if (parts < 1 || 3 * parts > 0xFFFF) {
            throw new IllegalArgumentException("a gather splits into 1 to " + 0xFFFF / 3 + " parts, not " + parts);
        }
        this.exchange = exchange;
        this.tree = tree;
        this.parts = parts;
    }

    /** Completes with every rank's block in rank order at the root, empty elsewhere. */
    public Future<Optional<List<Buffer>>> run(Buffer mine) {
        if (parts == 1) {
            return new TreeGather(exchange, tree, 2).run(mine).map(this::atRoot);
        }
        List<RankBlocks> slices = new ArrayList<>(parts);
        Future<Void> chain = Future.succeededFuture();
        int sliceBytes = (mine.length() + parts - 1) / parts;
        for (int part = 0; part < parts; part++) {
            int index = part;
            Buffer slice = mine.getBuffer(Math.min(mine.length(), part * sliceBytes),
                    Math.min(mine.length(), (part + 1) * sliceBytes));
            chain = chain.compose(previous -> new TreeBarrier(exchange, tree, 3 * index).run())
                    .compose(synchronised -> new TreeGather(exchange, tree, 3 * index + 2).run(slice))
                    .map(gathered -> {
                        slices.add(gathered);
                        return null;
                    });
        }
        return chain.map(done -> exchange.rank() == tree.root() ? Optional.of(reassemble(slices)) : Optional.empty());
    }

    private Optional<List<Buffer>> atRoot(RankBlocks blocks) {
        return exchange.rank() == tree.root() ? Optional.of(blocks.inRankOrder(exchange.size())) : Optional.empty();
    }

    private List<Buffer> reassemble(List<RankBlocks> slices) {
        List<Buffer> blocks = new ArrayList<>(exchange.size());
        for (int rank = 0; rank < exchange.size(); rank++) {
            Buffer block = Buffer.buffer();
            for (RankBlocks slice : slices) {
                block.appendBuffer(slice.block(rank));
            }
            blocks.add(block);
        }
        return blocks;
    }
}
