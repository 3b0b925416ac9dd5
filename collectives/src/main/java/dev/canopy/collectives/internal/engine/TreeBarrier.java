package dev.canopy.collectives.internal.engine;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;

/**
 * A barrier over a tree: empty messages up to the root, then down again. Uses two steps,
 * {@code step} and {@code step + 1}.
 */
public final class TreeBarrier {

    private final Exchange exchange;
    private final RootedTree tree;
    private final int step;

    public TreeBarrier(Exchange exchange, RootedTree tree, int step) {
        this.exchange = exchange;
        this.tree = tree;
        this.step = step;
    }

    public Future<Void> run() {
        return new TreeGather(exchange, tree, step).run(Buffer.buffer())
                .compose(gathered -> new TreeBroadcast(exchange, tree, step + 1).run(Buffer.buffer(), 1))
                .mapEmpty();
    }
}
