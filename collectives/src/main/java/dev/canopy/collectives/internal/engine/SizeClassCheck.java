package dev.canopy.collectives.internal.engine;

import dev.canopy.collectives.CollectiveMismatchException;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks that every member picked the same size class for a collective whose members each decide it from their own
 * message size (reduce, allreduce, gather, ...): members that passed sizes of different classes would run different
 * trees and could wait for each other forever. Each member sends, before anything else of the collective, one check
 * (a frame on its own class's plan id, body {@code long bytes}) to its parent in every class's tree (once per
 * distinct parent), and every member takes one from each rank that names it as parent in some class's tree. Some
 * tree edge joins two members of different classes whenever there are any, so some member sees the difference, fails
 * with a {@link CollectiveMismatchException} (a malformed check body: {@code MalformedMessageException}) and aborts
 * the collective everywhere; a member waits only on members that either ran its own class's trees or abort, so none
 * hangs.
 *
 * <p>The checks are posted before the collective's own receives and a sender sends its check first, so each
 * (sender, tag) stream delivers the check to its check receive, in FIFO order, before any data.
 *
 * <p>When every class has the same tree from the collective's root (one class, or classes whose trees differ only
 * from other roots), there are no checks ({@link #needed}): every member then runs that one tree, every edge of it
 * carries a data frame from child to parent, and a receiver compares the plan id of every frame with its own, so
 * members of different classes fail the collective at that frame instead, with a {@link CollectiveMismatchException}
 * naming both plan ids. Every member decides alike, from the same plan's trees.
 */
public final class SizeClassCheck {

    /** The step the checks travel in; no collective uses it for data. */
    public static final int STEP = 0xFFFF;
    private static final int BODY_BYTES = Long.BYTES;

    private SizeClassCheck() {
    }

    /**
     * Sends this member's checks and completes once every check it expects has arrived and agreed.
     *
     * @param classTrees every size class's tree rooted at the collective's root, class 0 first, the same on every
     *     member
     * @param bytes this member's message size, which picked the plan {@code exchange} runs on
     */
    public static Future<Void> run(Exchange exchange, List<RootedTree> classTrees, long bytes) {
        if (!needed(classTrees)) {
            return Future.succeededFuture();
        }
        int me = exchange.rank();
        Set<Integer> parents = new LinkedHashSet<>();
        Set<Integer> children = new LinkedHashSet<>();
        for (RootedTree tree : classTrees) {
            if (tree.parent(me) != RootedTree.NO_PARENT) {
                parents.add(tree.parent(me));
            }
            for (int child : tree.children(me)) {
                children.add(child);
            }
        }
        List<Future<?>> checks = new ArrayList<>();
        for (int child : children) {
            checks.add(exchange.receiveOnAnyPlan(child, STEP).map(check -> {
                agree(exchange, child, check, bytes);
                return null;
            }));
        }
        Buffer body = Buffer.buffer(BODY_BYTES).appendLong(bytes);
        for (int parent : parents) {
            checks.add(exchange.send(parent, STEP, body));
        }
        return Future.all(checks).mapEmpty();
    }

    /**
     * Whether the checks can find what the collective's own frames cannot: only when some class's tree differs from
     * another's, so that members of different classes would wait on different edges.
     */
    public static boolean needed(List<RootedTree> classTrees) {
        return classTrees.stream().anyMatch(tree -> !tree.sameAs(classTrees.get(0)));
    }

    private static void agree(Exchange exchange, int source, Exchange.OnPlan check, long bytes) {
        if (check.body().length() != BODY_BYTES || check.body().getLong(0) < 0) {
            throw exchange.malformed(source, STEP, "a size check of " + check.body().length() + " bytes; it holds one"
                    + " message size >= 0 in " + BODY_BYTES + " bytes");
        }
        if (check.plan() != exchange.plan()) {
            throw new CollectiveMismatchException("rank " + source + " runs " + exchange.operation().displayName()
                    + " on plan " + check.plan() + " for a message of " + check.body().getLong(0) + " bytes while rank "
                    + exchange.rank() + " runs it on plan " + exchange.plan() + " for " + bytes + " bytes: members must"
                    + " start the same collectives in the same order with the same plan, and pass messages of one size"
                    + " class (the trees differ by size)");
        }
    }
}
