package dev.canopy.collectives.internal.engine;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * All-to-all by direct pairs: rank r sends block d to every rank d, starting with r + 1 so that
 * ranks do not all hit rank 0 first, and receives one block from every rank.
 */
public final class PairwiseExchange {

    private final Exchange exchange;
    private final int step;

    public PairwiseExchange(Exchange exchange, int step) {
        this.exchange = exchange;
        this.step = step;
    }

    /** {@code blocks} holds one block per destination rank; completes with one block per source rank. */
    public Future<List<Buffer>> run(List<Buffer> blocks) {
        int me = exchange.rank();
        int size = exchange.size();
        if (blocks.size() != size) {
            throw new IllegalArgumentException("all-to-all needs one block per rank (" + size + "), got " + blocks.size());
        }
        List<Future<Void>> sends = new ArrayList<>();
        List<Future<Buffer>> receives = new ArrayList<>();
        for (int shift = 1; shift < size; shift++) {
            sends.add(exchange.send((me + shift) % size, step, blocks.get((me + shift) % size)));
        }
        for (int source = 0; source < size; source++) {
            receives.add(source == me ? Future.succeededFuture(blocks.get(me)) : exchange.receive(source, step));
        }
        return Future.all(Future.all(sends), Future.all(receives)).map(all -> {
            List<Buffer> received = new ArrayList<>(size);
            for (Future<Buffer> block : receives) {
                received.add(block.result());
            }
            return received;
        });
    }
}
