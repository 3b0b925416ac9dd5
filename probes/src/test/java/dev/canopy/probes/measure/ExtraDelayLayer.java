package dev.canopy.probes.measure;

import dev.canopy.core.frame.Frame;
import dev.canopy.core.node.Member;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportLayer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.concurrent.atomic.AtomicLong;

/** Test layer: delays every outgoing datagram by an amount the test can change while the grid runs. */
final class ExtraDelayLayer extends TransportLayer {

    private final Vertx vertx;
    private final AtomicLong extraMillis = new AtomicLong();

    ExtraDelayLayer(Vertx vertx, Transport below) {
        super(below);
        this.vertx = vertx;
    }

    void setExtraMillis(long millis) {
        extraMillis.set(millis);
    }

    @Override
    public Future<Void> sendDatagram(Member to, Frame frame) {
        long delay = extraMillis.get();
        if (delay == 0) {
            return below.sendDatagram(to, frame);
        }
        Promise<Void> sent = Promise.promise();
        vertx.setTimer(delay, id -> below.sendDatagram(to, frame).onComplete(sent));
        return sent.future();
    }
}
