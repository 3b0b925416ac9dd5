package dev.canopy.core.internal.fault;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.node.Member;
import dev.canopy.core.transport.Transport;
import io.vertx.core.Future;

/** Sends some frames twice, chosen by a seeded coin (JGroups' DUPL). The seed is logged. */
public final class DuplicateLayer extends SeededFaultLayer {

    public DuplicateLayer(Transport below, Traffic traffic, double rate, long seed) {
        super(below, traffic, rate, seed);
    }

    @Override
    Future<Void> inject(Member to, Frame frame, Sender sender) {
        Future<Void> first = sender.send(to, frame);
        if (coin.flip(rate)) {
            sender.send(to, frame);
        }
        return first;
    }
}
