package dev.canopy.core.internal.fault;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.transport.OwnerContext;
import dev.canopy.core.transport.Transport;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Swaps frames to a peer: a frame chosen by a seeded coin is held back and sent right after the
 * next frame to the same peer (or after {@code maxHold} if none comes). Its send future completes
 * when it is really sent. The seed is logged. State lives on the transport's context.
 */
public final class ReorderLayer extends SeededFaultLayer {

    private record Held(Member to, Frame frame, Sender sender, Promise<Void> sent, long timer) {
    }

    private final long maxHoldMs;
    private final Map<NodeId, Held> held = new HashMap<>();

    public ReorderLayer(Transport below, Traffic traffic, double rate, long seed, Duration maxHold) {
        super(below, traffic, rate, seed);
        if (maxHold.toMillis() < 1) {
            throw new IllegalArgumentException("maxHold " + maxHold + " must be at least 1 ms");
        }
        this.maxHoldMs = maxHold.toMillis();
    }

    @Override
    Future<Void> inject(Member to, Frame frame, Sender sender) {
        return OwnerContext.call(context(), () -> {
            Held waiting = held.remove(to.id());
            if (waiting == null && coin.flip(rate)) {
                Promise<Void> sent = Promise.promise();
                long timer = context().owner().setTimer(maxHoldMs, id -> release(to.id()));
                held.put(to.id(), new Held(to, frame, sender, sent, timer));
                return sent.future();
            }
            Future<Void> sent = sender.send(to, frame);
            if (waiting != null) {
                context().owner().cancelTimer(waiting.timer());
                waiting.sender().send(waiting.to(), waiting.frame()).onComplete(waiting.sent());
            }
            return sent;
        });
    }

    private void release(NodeId peer) {
        Held waiting = held.remove(peer);
        if (waiting != null) {
            waiting.sender().send(waiting.to(), waiting.frame()).onComplete(waiting.sent());
        }
    }

    @Override
    public String toString() {
        return "ReorderLayer[rate=" + rate + " seed=" + coin.seed() + " maxHold=" + maxHoldMs + " ms]";
    }
}
