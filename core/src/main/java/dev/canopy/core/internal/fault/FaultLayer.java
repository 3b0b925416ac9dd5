package dev.canopy.core.internal.fault;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.node.Member;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportLayer;
import io.vertx.core.Future;

/**
 * A deterministic fault injected into outgoing traffic: the subclass decides what happens to each
 * frame of the chosen {@link Traffic}; everything else passes through.
 */
abstract class FaultLayer extends TransportLayer {

    /** How a frame goes on below this layer: {@code send} or {@code sendDatagram}. */
    @FunctionalInterface
    interface Sender {
        Future<Void> send(Member to, Frame frame);
    }

    private final Traffic traffic;

    FaultLayer(Transport below, Traffic traffic) {
        super(below);
        this.traffic = traffic;
    }

    @Override
    public final Future<Void> send(Member to, Frame frame) {
        return traffic.includesFrames() ? inject(to, frame, below::send) : below.send(to, frame);
    }

    @Override
    public final Future<Void> sendDatagram(Member to, Frame frame) {
        return traffic.includesDatagrams() ? inject(to, frame, below::sendDatagram) : below.sendDatagram(to, frame);
    }

    /** Applies the fault to one frame; {@code sender} sends it on below. */
    abstract Future<Void> inject(Member to, Frame frame, Sender sender);
}
