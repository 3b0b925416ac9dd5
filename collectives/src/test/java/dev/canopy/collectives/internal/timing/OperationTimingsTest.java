package dev.canopy.collectives.internal.timing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.CollectiveObserver.Observation;
import dev.canopy.collectives.internal.engine.Operation;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A member's operation timings: arrival at the call, completion at the future, the last 32 kept. */
class OperationTimingsTest {

    private final AtomicLong clock = new AtomicLong(1_000);
    private final OperationTimings timings = new OperationTimings(clock::get);

    @Test
    void anOperationIsKeptWithItsArrivalSequenceAndCompletion() {
        Observation observation = timings.started(Operation.BCAST, 2, 4096);
        clock.set(1_500);
        observation.sequenced(1, 7, 3);
        assertThat(timings.snapshot().operations()).containsExactly(new OperationTiming(1, 7, Operation.BCAST, 2, 4096, 3,
                1_000, Optional.empty(), Optional.empty()));
        long running = timings.snapshot().version();
        clock.set(2_250);
        observation.completed(null);

        OperationTimings.Snapshot done = timings.snapshot();
        assertThat(done.version()).isGreaterThan(running);
        assertThat(done.operations()).containsExactly(new OperationTiming(1, 7, Operation.BCAST, 2, 4096, 3, 1_000,
                Optional.of(2_250L), Optional.empty()));
    }

    @Test
    void onlyTheLast32AreKeptAndALateCompletionOfADroppedOneAddsNothing() {
        Observation first = timings.started(Operation.BARRIER, 0, 0);
        first.sequenced(1, 0, 0);
        for (int sequence = 1; sequence <= OperationTimings.KEPT; sequence++) {
            Observation next = timings.started(Operation.ALLREDUCE, 0, 8);
            next.sequenced(1, sequence, 0);
            next.completed(null);
        }
        first.completed(null);

        assertThat(timings.snapshot().operations()).hasSize(OperationTimings.KEPT)
                .extracting(OperationTiming::sequence).startsWith(1L).endsWith((long) OperationTimings.KEPT)
                .doesNotContain(0L);
    }

    @Test
    void aFailureIsKeptAsOnePrintableBoundedLine() {
        Observation observation = timings.started(Operation.REDUCE, 0, 8);
        observation.sequenced(1, 0, 0);
        observation.completed(new IllegalStateException("rank 3 failed\nforged log line " + "x".repeat(500)));

        String failure = timings.snapshot().operations().get(0).failure().orElseThrow();
        assertThat(failure).startsWith("rank 3 failed?forged log line").doesNotContain("\n");
        assertThat(failure.length()).isLessThanOrEqualTo(OperationTimings.MAX_FAILURE_CHARS);
    }
}
