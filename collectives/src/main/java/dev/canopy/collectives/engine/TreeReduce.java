package dev.canopy.collectives.engine;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.reduce.PartialReduction;
import dev.canopy.collectives.reduce.ReduceOp;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reduce up a tree: every rank combines its vector with its children's partial results and sends
 * the combination to its parent. Partial results keep rank runs apart where the operator is not
 * commutative (see {@link PartialReduction}), so any tree gives the rank-ordered result.
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

    /** Completes with the result at the root and empty elsewhere. */
    public Future<Optional<Buffer>> run(Buffer mine, ElementType type, ReduceOp op) {
        int me = exchange.rank();
        List<Future<Buffer>> fromChildren = new ArrayList<>();
        for (int child : tree.children(me)) {
            fromChildren.add(exchange.receive(child, step));
        }
        return Future.all(fromChildren).compose(all -> {
            PartialReduction partial = PartialReduction.of(me, mine);
            for (Future<Buffer> child : fromChildren) {
                partial = partial.merge(PartialReduction.decode(child.result()), op, type);
            }
            if (me == tree.root()) {
                return Future.succeededFuture(Optional.of(partial.result()));
            }
            return exchange.send(tree.parent(me), step, partial.encode()).map(Optional.<Buffer>empty());
        });
    }
}
