package dev.canopy.core.internal.fault;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.node.Member;
import dev.canopy.core.transport.OwnerContext;
import dev.canopy.core.transport.PeerUnavailableException;
import dev.canopy.core.transport.Transport;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds frames from {@link #hold()} until {@link #release()}, then sends them in their order: for
 * tests that need a frame to arrive after an exact event (its sender leaving the job, say), with no
 * timing involved. A held frame's send completes when it is really sent; closing the layer fails
 * the frames still held. State lives on the transport's context.
 */
public final class HoldLayer extends FaultLayer {

    private record Held(Member to, Frame frame, Sender sender, Promise<Void> sent) {
    }

    private final List<Held> held = new ArrayList<>();
    private boolean holding;

    public HoldLayer(Transport below, Traffic traffic) {
        super(below, traffic);
    }

    /** Frames sent from now on are held; completes once that is in effect. */
    public Future<Void> hold() {
        return OwnerContext.call(context(), () -> {
            holding = true;
            return Future.succeededFuture();
        });
    }

    /** Sends the held frames, in order, and lets later frames through; completes once they are handed on. */
    public Future<Void> release() {
        return OwnerContext.call(context(), () -> {
            holding = false;
            List<Held> releasing = List.copyOf(held);
            held.clear();
            releasing.forEach(h -> h.sender().send(h.to(), h.frame()).onComplete(h.sent()));
            return Future.succeededFuture();
        });
    }

    @Override
    Future<Void> inject(Member to, Frame frame, Sender sender) {
        return OwnerContext.call(context(), () -> {
            if (!holding) {
                return sender.send(to, frame);
            }
            Promise<Void> sent = Promise.promise();
            held.add(new Held(to, frame, sender, sent));
            return sent.future();
        });
    }

    @Override
    public Future<Void> close() {
        return OwnerContext.call(context(), () -> {
            holding = false;
            List<Held> dropped = List.copyOf(held);
            held.clear();
            dropped.forEach(h -> h.sent().fail(new PeerUnavailableException(h.to().id(),
                    "the local transport closed while the frame was held (HoldLayer)")));
            return below.close();
        });
    }

    @Override
    public String toString() {
        return "HoldLayer over " + below;
    }
}
