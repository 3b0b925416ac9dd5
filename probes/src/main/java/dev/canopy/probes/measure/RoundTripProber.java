package dev.canopy.probes.measure;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.canopy.core.frame.Frame;
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
    private final Ticker clock;
    private final PendingProbes pending;
    private final ProbeCounters counters;
    private final long job;
    private long nextSequence;

    RoundTripProber(Vertx vertx, Transport transport, Ticker clock, Duration timeout, ProbeCounters counters, long job) {
        this.transport = transport;
        this.clock = clock;
        this.pending = new PendingProbes(vertx, timeout);
        this.counters = counters;
        this.job = job;
    }

    /** Sends one echo request to {@code peer}; completes with the round-trip time in milliseconds, or lost. */
    Future<ProbeOutcome> probe(Member peer, int selfRank, int peerRank) {
        long sequence = nextSequence++;
        long sentNanos = clock.read();
        Future<ProbeOutcome> outcome = pending.expect(sequence, peer, sentNanos);
        counters.sent();
        transport.sendDatagram(peer, ProbeFrames.request(job, selfRank, peerRank, sequence, sentNanos))
                .onFailure(e -> pending.failed(sequence, "cannot send to " + peer.id() + ": " + e.getMessage()));
        return outcome;
    }

    /** Takes a reply from an admitted member; a reply that matches no probe in flight is dropped and counted. */
    void onReply(Frame reply, Member from) {
        long nowNanos = clock.read();
        pending.answeredBy(reply.sequence(), from).ifPresentOrElse(
                answered -> answered.outcome().tryComplete(
                        new ProbeOutcome.Measured((nowNanos - answered.sentNanos()) / 1e6)),
                () -> counters.dropped(DropReason.UNEXPECTED_REPLY));
    }

    void stop() {
        pending.abandonAll("probe service stopped");
    }
}
