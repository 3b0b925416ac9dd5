package dev.canopy.probes.internal.measure;

import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.node.Member;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * Probes in flight, by sequence number, each timed on this node's monotonic clock and bounded by a timeout:
 * an answer completes a probe with the elapsed milliseconds, silence with {@link ProbeOutcome.Lost}.
 * Owned by the probe service's context (timers fire there).
 */
final class PendingProbes {

    /** One probe waiting for its answer. */
    private record Pending(Member peer, long sentNanos, Promise<ProbeOutcome> outcome, long timer) {
    }

    private final Vertx vertx;
    private final NanoClock clock;
    private final Duration timeout;
    private final ProbeCounters counters;
    private final Map<Long, Pending> inFlight = new HashMap<>();
    private long nextSequence;

    PendingProbes(Vertx vertx, NanoClock clock, Duration timeout, ProbeCounters counters) {
        this.vertx = vertx;
        this.clock = clock;
        this.timeout = timeout;
        this.counters = counters;
    }

    /**
     * Sends a probe with {@code send} (given the new sequence number) and completes with the milliseconds until
     * its answer, or lost if it cannot be sent or is not answered in time.
     */
    Future<ProbeOutcome> send(Member peer, LongFunction<Future<Void>> send) {
        long sequence = nextSequence++;
        Promise<ProbeOutcome> outcome = Promise.promise();
        long timer = vertx.setTimer(timeout.toMillis(), id -> lose(sequence, "no answer from " + peer.id()
                + " within " + timeout.toMillis() + " ms"));
        inFlight.put(sequence, new Pending(peer, clock.nanoTime(), outcome, timer));
        counters.sent();
        send.apply(sequence).onFailure(e -> lose(sequence, "cannot send to " + peer.id() + ": " + e.getMessage()));
        return outcome.future();
    }

    /** An answer from an admitted member; one that matches no probe in flight to it is dropped and counted. */
    void answer(long sequence, Member from) {
        long nowNanos = clock.nanoTime();
        Pending pending = inFlight.get(sequence);
        if (pending == null || !pending.peer().id().equals(from.id())) {
            counters.dropped(DropReason.UNEXPECTED_REPLY);
            return;
        }
        inFlight.remove(sequence);
        vertx.cancelTimer(pending.timer());
        pending.outcome().tryComplete(new ProbeOutcome.Measured((nowNanos - pending.sentNanos()) / 1e6));
    }

    /** Completes every probe in flight as lost; used when the service stops. */
    void abandonAll(String reason) {
        for (Pending pending : inFlight.values()) {
            vertx.cancelTimer(pending.timer());
            pending.outcome().tryComplete(new ProbeOutcome.Lost(reason));
        }
        inFlight.clear();
    }

    private void lose(long sequence, String reason) {
        Pending pending = inFlight.remove(sequence);
        if (pending != null) {
            vertx.cancelTimer(pending.timer());
            pending.outcome().tryComplete(new ProbeOutcome.Lost(reason));
        }
    }
}
