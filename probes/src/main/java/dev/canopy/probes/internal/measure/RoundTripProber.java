package dev.canopy.probes.internal.measure;

import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.node.Member;
import dev.canopy.core.transport.Transport;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;

/**
 * Small UDP echo probes: the round-trip time is read on this node's monotonic clock at send and at reply,
 * so no clock synchronisation between nodes is needed. Owned by the probe service's context.
 */
final class RoundTripProber {

    private final Transport transport;
    private final NanoClock clock;
    private final PendingProbes pending;
    private final long job;

    RoundTripProber(Vertx vertx, Transport transport, NanoClock clock, Duration timeout, ProbeCounters counters,
            long job) {
        this.transport = transport;
        this.clock = clock;
        this.pending = new PendingProbes(vertx, clock, timeout, counters);
        this.job = job;
    }

    /** Sends one echo request to {@code peer}; completes with the round-trip time in milliseconds, or lost. */
    Future<ProbeOutcome> probe(Member peer, int selfRank, int peerRank) {
        return pending.send(peer, sequence -> transport.sendDatagram(peer,
                ProbeFrames.request(job, selfRank, peerRank, sequence, clock.nanoTime())));
    }

    /** Takes a reply from an admitted member. */
    void onReply(Frame reply, Member from) {
        pending.answer(reply.sequence(), from);
    }

    void stop() {
        pending.abandonAll("probe service stopped");
    }
}
