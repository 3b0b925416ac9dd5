package dev.canopy.core.internal.fault;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.node.Member;
import dev.canopy.core.transport.OwnerContext;
import dev.canopy.core.transport.Transport;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Duration;

/**
 * Holds every frame for a fixed time before sending it (JGroups' DELAY), on an event-loop timer:
 * nothing blocks, and frames keep their order because all wait equally long. Millisecond
 * resolution; the WAN emulation layer is the precise one.
 */
public final class DelayLayer extends FaultLayer {

    private final long delayMs;

    public DelayLayer(Transport below, Traffic traffic, Duration delay) {
        super(below, traffic);
        if (delay.toMillis() < 1) {
            throw new IllegalArgumentException("delay " + delay + " must be at least 1 ms");
        }
        this.delayMs = delay.toMillis();
    }

    @Override
    Future<Void> inject(Member to, Frame frame, Sender sender) {
        return OwnerContext.call(context(), () -> {
            Promise<Void> sent = Promise.promise();
            context().owner().setTimer(delayMs, id -> sender.send(to, frame).onComplete(sent));
            return sent.future();
        });
    }

    @Override
    public String toString() {
        return "DelayLayer[" + delayMs + " ms]";
    }
}
