package dev.canopy.collectives.internal.timing;

import dev.canopy.collectives.internal.engine.Operation;
import java.util.Objects;
import java.util.Optional;

/**
 * One collective as one member ran it, on this member's wall clock (microseconds since the epoch): when its program
 * called it and when its future completed.
 *
 * @param contextId the communicator's context id (1: WORLD)
 * @param sequence the operation's sequence number on that communicator, the same on every member
 * @param root the operation's root rank (0 for operations without one)
 * @param bytes this member's payload bytes
 * @param epoch the plan's epoch the operation ran on
 * @param completionMicros empty while it runs
 * @param failure why it failed here, if it did
 */
public record OperationTiming(int contextId, long sequence, Operation operation, int root, long bytes, long epoch,
        long arrivalMicros, Optional<Long> completionMicros, Optional<String> failure) {

    public OperationTiming {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(completionMicros, "completionMicros");
        Objects.requireNonNull(failure, "failure");
    }

    OperationTiming completed(long micros, Optional<String> why) {
        return new OperationTiming(contextId, sequence, operation, root, bytes, epoch, arrivalMicros, Optional.of(micros), why);
    }
}
