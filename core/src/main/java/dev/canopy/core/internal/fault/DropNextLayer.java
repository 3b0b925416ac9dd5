package dev.canopy.core.internal.fault;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.node.Member;
import dev.canopy.core.transport.Transport;
import io.vertx.core.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Drops the next N frames when told to (JGroups' DISCARD): for tests that need one exact loss at
 * one exact point. Dropped sends succeed, as into a lossy network.
 */
public final class DropNextLayer extends FaultLayer {

    private final AtomicInteger toDrop = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();

    public DropNextLayer(Transport below, Traffic traffic) {
        super(below, traffic);
    }

    /** The next {@code count} frames of this layer's traffic are dropped (added to any still pending). */
    public void dropNext(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("cannot drop " + count + " frames");
        }
        toDrop.addAndGet(count);
    }

    /** Frames dropped so far. */
    public long dropped() {
        return dropped.get();
    }

    @Override
    Future<Void> inject(Member to, Frame frame, Sender sender) {
        if (toDrop.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            dropped.incrementAndGet();
            return Future.succeededFuture();
        }
        return sender.send(to, frame);
    }
}
