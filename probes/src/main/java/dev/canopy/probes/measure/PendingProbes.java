package dev.canopy.probes.measure;

import dev.canopy.core.node.Member;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Probes in flight, by sequence number, each with its timeout; a probe not answered in time completes as
 * {@link ProbeOutcome.Lost}. Owned by the probe service's context (timers fire there).
 */
final class PendingProbes {

    /** One probe waiting for its answer. */
    record Pending(Member peer, long sentNanos, Promise<ProbeOutcome> outcome, long timer) {
    }

    private final Vertx vertx;
    private final Duration timeout;
    private final Map<Long, Pending> inFlight = new HashMap<>();

    PendingProbes(Vertx vertx, Duration timeout) {
        this.vertx = vertx;
        this.timeout = timeout;
    }

    /** Registers a probe just sent; its future completes when it is answered, lost or times out. */
    Future<ProbeOutcome> expect(long sequence, Member peer, long sentNanos) {
        Promise<ProbeOutcome> outcome = Promise.promise();
        long timer = vertx.setTimer(timeout.toMillis(), id -> {
            if (inFlight.remove(sequence) != null) {
                outcome.tryComplete(new ProbeOutcome.Lost("no answer from " + peer.id() + " within "
                        + timeout.toMillis() + " ms"));
            }
        });
        inFlight.put(sequence, new Pending(peer, sentNanos, outcome, timer));
        return outcome.future();
    }

    /** Removes and returns the probe with {@code sequence} if it is in flight to {@code peer}. */
    Optional<Pending> answeredBy(long sequence, Member peer) {
        Pending pending = inFlight.get(sequence);
        if (pending == null || !pending.peer().id().equals(peer.id())) {
            return Optional.empty();
        }
        inFlight.remove(sequence);
        vertx.cancelTimer(pending.timer());
        return Optional.of(pending);
    }

    /** Completes a probe that could not even be sent as lost. */
    void failed(long sequence, String reason) {
        Pending pending = inFlight.remove(sequence);
        if (pending != null) {
            vertx.cancelTimer(pending.timer());
            pending.outcome().tryComplete(new ProbeOutcome.Lost(reason));
        }
    }

    /** Completes every probe in flight as lost; used when the service stops. */
    void abandonAll(String reason) {
        for (Pending pending : inFlight.values()) {
            vertx.cancelTimer(pending.timer());
            pending.outcome().tryComplete(new ProbeOutcome.Lost(reason));
        }
        inFlight.clear();
    }

    int size() {
        return inFlight.size();
    }
}
