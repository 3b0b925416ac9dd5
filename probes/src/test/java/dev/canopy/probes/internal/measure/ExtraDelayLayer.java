package dev.canopy.probes.internal.measure;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.node.Member;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportLayer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Test layer: delays every outgoing datagram by an amount the test can change while the grid runs, and
 * optionally a seeded share of them by a further spike (queueing on a jittery path).
 */
final class ExtraDelayLayer extends TransportLayer {

    private final Vertx vertx;
    private final AtomicLong extraMillis = new AtomicLong();
    private final SplittableRandom random;
    private volatile double spikeProbability;
    private volatile long spikeMillis;

    ExtraDelayLayer(Vertx vertx, Transport below, long seed) {
        super(below);
        this.vertx = vertx;
        this.random = new SplittableRandom(seed);
    }

    void setExtraMillis(long millis) {
        extraMillis.set(millis);
    }

    /** From now on, delays each datagram by a further {@code millis} with {@code probability}. */
    void setSpikes(double probability, long millis) {
        spikeMillis = millis;
        spikeProbability = probability;
    }

    @Override
    public Future<Void> sendDatagram(Member to, Frame frame) {
        long delay = extraMillis.get() + (nextSpike() ? spikeMillis : 0);
        if (delay == 0) {
            return below.sendDatagram(to, frame);
        }
        Promise<Void> sent = Promise.promise();
        vertx.setTimer(delay, id -> below.sendDatagram(to, frame).onComplete(sent));
        return sent.future();
    }

    /** Sends run on the transport's context, so the random generator has one owner. */
    private boolean nextSpike() {
        return spikeProbability > 0 && random.nextDouble() < spikeProbability;
    }
}
