package dev.canopy.collectives.internal.engine;

import dev.canopy.collectives.data.MalformedMessageException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The incast-avoiding gather for medium messages (segmentation.md, with a sender window instead of a barrier
 * before each piece; {@code SplitPlanner} chooses the numbers): every block is cut into {@code parts} slices, and
 * every node of the tree pulls its children's slices: it asks a child for its next piece with an empty request,
 * and the child answers with its subtree's slice of that part. At most {@code window} pieces are asked for at
 * once, so no more than that many senders ever burst into one receiver's port together; as soon as one piece
 * arrives the next request goes out, so the port keeps busy without a round of synchronisation per piece.
 * Children are asked part by part, in turn.
 *
 * <p>Part j's request uses step 2j, its answer step 2j+1.
 */
public final class WindowedGather {

    private final Exchange exchange;
    private final RootedTree tree;
    private final int parts;
    private final int window;

    public WindowedGather(Exchange exchange, RootedTree tree, int parts, int window) {
        if (parts < 1 || 2 * parts > 0xFFFF || window < 1) {
            throw new IllegalArgumentException("a windowed gather needs 1 to " + 0xFFFF / 2 + " parts and a window of at"
                    + " least one, not " + parts + " parts, window " + window);
        }
        this.exchange = exchange;
        this.tree = tree;
        this.parts = parts;
        this.window = window;
    }

    /** Completes with every rank's block in rank order at the root, empty elsewhere. */
    public Future<Optional<List<Buffer>>> run(Buffer mine) {
        int me = exchange.rank();
        int sliceBytes = (mine.length() + parts - 1) / parts;
        List<Buffer> slices = new ArrayList<>(parts);
        for (int part = 0; part < parts; part++) {
            slices.add(mine.getBuffer(Math.min(mine.length(), part * sliceBytes),
                    Math.min(mine.length(), (part + 1) * sliceBytes)));
        }
        List<Future<RankBlocks>> subtreeParts = new Puller(me, slices).start();
        if (me == tree.root()) {
            return Future.all(subtreeParts).map(all -> Optional.of(reassemble(subtreeParts)));
        }
        return answerParent(subtreeParts).map(Optional.empty());
    }

    /** Answers the parent's requests in order, each with this subtree's slices of that part once they are here. */
    private Future<Void> answerParent(List<Future<RankBlocks>> subtreeParts) {
        int parent = tree.parent(exchange.rank());
        Future<Void> answered = Future.succeededFuture();
        List<Future<Void>> sent = new ArrayList<>(parts);
        for (int part = 0; part < parts; part++) {
            int index = part;
            answered = answered.compose(previous -> exchange.receive(parent, 2 * index, WindowedGather::request))
                    .compose(asked -> subtreeParts.get(index))
                    .map(ready -> {
                        sent.add(exchange.send(parent, 2 * index + 1, ready.encode()));
                        return null;
                    });
        }
        return answered.compose(all -> Future.all(sent)).mapEmpty();
    }

    /** A request carries nothing; anything else is not from a member running this gather. */
    private static Void request(Buffer body) {
        if (body.length() != 0) {
            throw new MalformedMessageException("a piece request of a windowed gather carries no data, this one "
                    + body.length() + " bytes");
        }
        return null;
    }

    private List<Buffer> reassemble(List<Future<RankBlocks>> subtreeParts) {
        List<Buffer> blocks = new ArrayList<>(exchange.size());
        for (int rank = 0; rank < exchange.size(); rank++) {
            Buffer block = Buffer.buffer();
            for (Future<RankBlocks> part : subtreeParts) {
                block.appendBuffer(part.result().block(rank));
            }
            blocks.add(block);
        }
        return blocks;
    }

    /**
     * One node's pulls from its children: piece q of the queue is part q / c of child q % c (c children), at most
     * {@link #window} asked for and not yet arrived. Runs on the collective's context, so needs no locking.
     */
    private final class Puller {

        private final int[] children;
        private final List<RankBlocks.Builder> builders = new ArrayList<>(parts);
        private final List<Promise<RankBlocks>> complete = new ArrayList<>(parts);
        private final int[] missing;
        /** Per child, its last answer's arrival: answers from one child are received in the order asked for. */
        private final List<Future<Void>> received = new ArrayList<>();
        private int next;
        private int outstanding;

        Puller(int me, List<Buffer> slices) {
            children = tree.children(me);
            missing = new int[parts];
            for (int part = 0; part < parts; part++) {
                builders.add(RankBlocks.builder().put(me, slices.get(part)));
                complete.add(Promise.promise());
                missing[part] = children.length;
            }
            for (int ignored : children) {
                received.add(Future.succeededFuture());
            }
        }

        /** This node's subtree's slices, part by part. */
        List<Future<RankBlocks>> start() {
            if (children.length == 0) {
                for (int part = 0; part < parts; part++) {
                    complete.get(part).complete(builders.get(part).build());
                }
            } else {
                askMore();
            }
            return complete.stream().map(Promise::future).toList();
        }

        private void askMore() {
            while (outstanding < window && next < parts * children.length) {
                int part = next / children.length;
                int childIndex = next % children.length;
                next++;
                outstanding++;
                ask(part, childIndex);
            }
        }

        private void ask(int part, int childIndex) {
            int child = children[childIndex];
            Future<Void> asked = exchange.send(child, 2 * part, Buffer.buffer());
            Future<Void> answered = received.get(childIndex).compose(previous -> exchange.receive(child, 2 * part + 1,
                    body -> RankBlocks.decode(body).requireRanks(tree.subtree(child), "the subtree of rank " + child)))
                    .map(blocks -> {
                        builders.get(part).putAll(blocks);
                        if (--missing[part] == 0) {
                            complete.get(part).complete(builders.get(part).build());
                        }
                        outstanding--;
                        askMore();
                        return null;
                    });
            received.set(childIndex, answered);
            Future.all(asked, answered).onFailure(this::failAll);
        }

        private void failAll(Throwable cause) {
            complete.forEach(part -> part.tryFail(cause));
        }
    }
}
