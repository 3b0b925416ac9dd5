package dev.canopy.probes.internal.measure;

import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.transport.Transport;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * Timed TCP transfers: sends {@code bytes} in one frame and waits for the peer's receipt. The transfer time is
 * the time to the receipt less one round trip (the latency the forecasts already know), so the result is the
 * link's throughput in megabits per second. The first transfer to a peer is a warm-up, not a sample: it usually
 * opens the TCP connection too, and its handshake round trip would make a fast link look thin (on an 80 ms link a
 * 64 KiB transfer at 100 Mbit/s then reads as 6 Mbit/s). Owned by the probe service's context.
 */
final class BandwidthProber {

    private final Transport transport;
    private final PendingProbes pending;
    private final long job;
    private final int bytes;
    /** Peers a transfer has reached once, so their connection is open. */
    private final Set<NodeId> warmed = new HashSet<>();

    BandwidthProber(Vertx vertx, Transport transport, NanoClock clock, Duration timeout, ProbeCounters counters,
            long job, int bytes) {
        this.transport = transport;
        this.pending = new PendingProbes(vertx, clock, timeout, counters);
        this.job = job;
        this.bytes = bytes;
    }

    /**
     * Times one transfer to {@code peer}. {@code roundTripMillis} is the link's current round-trip forecast
     * (0 when none yet).
     */
    Future<ProbeOutcome> probe(Member peer, int selfRank, int peerRank, double roundTripMillis) {
        return pending.send(peer, sequence -> transport.send(peer,
                        ProbeFrames.transfer(job, selfRank, peerRank, sequence, bytes)))
                .map(elapsed -> elapsed instanceof ProbeOutcome.Measured && warmed.add(peer.id())
                        ? new ProbeOutcome.Lost("the first transfer to " + peer.id() + " also timed its connection"
                                + " set-up: a warm-up, not a sample")
                        : toThroughput(elapsed, roundTripMillis));
    }

    /** Takes a receipt from an admitted member. */
    void onReceipt(Frame receipt, Member from) {
        pending.answer(receipt.sequence(), from);
    }

    void stop() {
        warmed.clear();
        pending.abandonAll("probe service stopped");
    }

    private ProbeOutcome toThroughput(ProbeOutcome elapsed, double roundTripMillis) {
        if (!(elapsed instanceof ProbeOutcome.Measured measured)) {
            return elapsed;
        }
        double transferMillis = measured.value() - roundTripMillis;
        if (transferMillis <= 0) {
            return new ProbeOutcome.Lost("a " + bytes + "-byte transfer took " + measured.value()
                    + " ms, no longer than one round trip: too small to time; raise the bandwidth probe size");
        }
        return new ProbeOutcome.Measured(bytes * 8.0 / (transferMillis / 1000) / 1e6);
    }
}
