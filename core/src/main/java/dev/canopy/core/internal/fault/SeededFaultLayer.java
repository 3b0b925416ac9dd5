package dev.canopy.core.internal.fault;

import dev.canopy.core.transport.Transport;
import org.slf4j.LoggerFactory;

/**
 * A fault layer that strikes frames chosen by a seeded coin at a fixed rate. The seed is logged
 * when the layer is made and is in {@link #toString()}, so a failing test can be rerun with it.
 */
abstract class SeededFaultLayer extends FaultLayer {

    final double rate;
    final SeededCoin coin;

    SeededFaultLayer(Transport below, Traffic traffic, double rate, long seed) {
        super(below, traffic);
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException(getClass().getSimpleName() + " rate " + rate
                    + " must be a probability between 0 and 1");
        }
        this.rate = rate;
        this.coin = new SeededCoin(seed);
        LoggerFactory.getLogger(getClass()).info("{}[rate={} seed={}] (rerun with this seed to reproduce)",
                getClass().getSimpleName(), rate, seed);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[rate=" + rate + " seed=" + coin.seed() + "]";
    }
}
