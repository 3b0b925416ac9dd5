package dev.canopy.collectives.internal.engine;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Scatter down a tree: the root holds one block per rank and sends each child the blocks of that
 * child's subtree; every rank keeps its own block and passes the rest on the same way. The message
 * from the parent must hold a block for every rank of this rank's subtree and no other
 * ({@link dev.canopy.collectives.data.MalformedMessageException} otherwise).
 */
public final class TreeScatter {

    private final Exchange exchange;
    private final RootedTree tree;
    private final int step;

    public TreeScatter(Exchange exchange, RootedTree tree, int step) {
        this.exchange = exchange;
        this.tree = tree;
        this.step = step;
    }

    /** {@code blocks} holds every rank's block at the root and is ignored elsewhere; completes with this rank's block. */
    public Future<Buffer> run(RankBlocks blocks) {
        int me = exchange.rank();
        Future<RankBlocks> mine = me == tree.root()
                ? Future.succeededFuture(blocks)
                : exchange.receive(tree.parent(me), step, body -> RankBlocks.decode(body)
                        .requireRanks(tree.subtree(me), "the subtree of rank " + me));
        return mine.compose(subtree -> {
            List<Future<Void>> sends = new ArrayList<>();
            for (int child : tree.children(me)) {
                sends.add(exchange.send(child, step, subtree.select(tree.subtree(child)).encode()));
            }
            return Future.all(sends).map(subtree.block(me));
        });
    }
}
