package dev.canopy.collectives.internal.engine;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Gather up a tree: every rank waits for its children's subtree blocks, adds its own and sends
 * the lot to its parent; the root ends with every rank's block, the others with none. A child's
 * message must hold a block for every rank of its subtree and no other
 * ({@link dev.canopy.collectives.data.MalformedMessageException} otherwise).
 */
public final class TreeGather {

    private final Exchange exchange;
    private final RootedTree tree;
    private final int step;

    public TreeGather(Exchange exchange, RootedTree tree, int step) {
        this.exchange = exchange;
        this.tree = tree;
        this.step = step;
    }

    /** Completes with all blocks at the root and with {@link RankBlocks#empty()} elsewhere. */
    public Future<RankBlocks> run(Buffer mine) {
        int me = exchange.rank();
        List<Future<RankBlocks>> fromChildren = new ArrayList<>();
        for (int child : tree.children(me)) {
            fromChildren.add(exchange.receive(child, step, body -> RankBlocks.decode(body)
                    .requireRanks(tree.subtree(child), "the subtree of rank " + child)));
        }
        return Future.all(fromChildren).compose(all -> {
            RankBlocks.Builder subtree = RankBlocks.builder().put(me, mine);
            for (Future<RankBlocks> child : fromChildren) {
                subtree.putAll(child.result());
            }
            RankBlocks collected = subtree.build();
            if (me == tree.root()) {
                return Future.succeededFuture(collected);
            }
            return exchange.send(tree.parent(me), step, collected.encode()).map(RankBlocks.empty());
        });
    }
}
