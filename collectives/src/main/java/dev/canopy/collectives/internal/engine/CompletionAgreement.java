package dev.canopy.collectives.internal.engine;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;

/**
 * Makes a rooted collective complete on every member only when it completed on all of them, so
 * that a member failing during it fails it on every survivor (not only on those that depended on
 * the failed member's data). Costs one extra tree pass after upward operations (the root confirms
 * it has everything) and two after downward ones (a barrier: every member has its data).
 *
 * <p>Uses step {@link #STEP}, above any step the operations themselves use.
 */
public final class CompletionAgreement {

    public static final int STEP = 0xFFF0;

    private final Exchange exchange;
    private final RootedTree tree;

    public CompletionAgreement(Exchange exchange, RootedTree tree) {
        this.exchange = exchange;
        this.tree = tree;
    }

    /** After gather or reduce: the root tells everyone it got every contribution. */
    public <T> Future<T> afterUpward(T result) {
        return new TreeBroadcast(exchange, tree, STEP).run(Buffer.buffer(), 1).map(result);
    }

    /** After bcast or scatter: a barrier, so everyone knows everyone has its data. */
    public <T> Future<T> afterDownward(T result) {
        return new TreeBarrier(exchange, tree, STEP).run().map(result);
    }
}
