package dev.canopy.core.transport.fault;

import dev.canopy.core.frame.Frame;
import dev.canopy.core.node.Member;
import dev.canopy.core.transport.Transport;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Sends some frames twice, chosen by a seeded coin (JGroups' DUPL). The seed is logged. */
public final class DuplicateLayer extends FaultLayer {

    private static final Logger LOG = LoggerFactory.getLogger(DuplicateLayer.class);

    private final double rate;
    private final SeededCoin coin;

    public DuplicateLayer(Transport below, Traffic traffic, double rate, long seed) {
        super(below, traffic);
        this.rate = SeededCoin.requireProbability(rate, "duplicate rate");
        this.coin = new SeededCoin(seed);
        LOG.info("{}", this);
    }

    @Override
    Future<Void> inject(Member to, Frame frame, Sender sender) {
        Future<Void> first = sender.send(to, frame);
        if (coin.flip(rate)) {
            sender.send(to, frame);
        }
        return first;
    }

    @Override
    public String toString() {
        return "DuplicateLayer[rate=" + rate + " seed=" + coin.seed() + "]";
    }
}
