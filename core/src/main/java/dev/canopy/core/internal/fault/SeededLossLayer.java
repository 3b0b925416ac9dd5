package dev.canopy.core.internal.fault;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.node.Member;
import dev.canopy.core.transport.Transport;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops each frame with a fixed probability, decided by a seeded coin (Aeron's seeded loss). A
 * dropped frame's send succeeds, as a send into a lossy network does. The seed is logged and in
 * {@link #toString()}, so a failing test can be rerun with it.
 */
public final class SeededLossLayer extends SeededFaultLayer {

    private static final Logger LOG = LoggerFactory.getLogger(SeededLossLayer.class);

    public SeededLossLayer(Transport below, Traffic traffic, double rate, long seed) {
        super(below, traffic, rate, seed);
    }

    @Override
    Future<Void> inject(Member to, Frame frame, Sender sender) {
        if (coin.flip(rate)) {
            LOG.debug("dropped {} to {} (seed {})", frame, to.id(), coin.seed());
            return Future.succeededFuture();
        }
        return sender.send(to, frame);
    }
}
