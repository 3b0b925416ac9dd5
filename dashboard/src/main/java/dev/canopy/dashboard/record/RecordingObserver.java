package dev.canopy.dashboard.record;

import dev.canopy.collectives.CollectiveObserver;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.collectives.plan.CollectivePlan;
import dev.canopy.core.comm.Communicator;
import java.util.Objects;

/**
 * Reports one in-process member's collectives to a {@link CollectiveRecorder}, as their {@link CollectiveObserver}:
 * each operation's start (when the program called it, on this JVM's clock), described from the plan it runs on, and
 * its completion (when its future completed). The collectives' own sequence number, the same on every member, matches
 * the members' reports into one operation. The observer stays with the collectives derived from the observed ones
 * ({@link Collectives#withPlan} at a plan switch), so a member is observed once, from its start.
 */
public final class RecordingObserver implements CollectiveObserver {

    private final CollectiveRecorder recorder;
    private final Communicator communicator;

    private RecordingObserver(CollectiveRecorder recorder, Communicator communicator) {
        this.recorder = Objects.requireNonNull(recorder, "recorder");
        this.communicator = communicator;
    }

    /** {@code collectives}, with every operation reported to {@code recorder}. */
    public static Collectives observe(Collectives collectives, CollectiveRecorder recorder) {
        return collectives.withObserver(new RecordingObserver(recorder, collectives.communicator()));
    }

    @Override
    public Observation started(Operation operation, int root, long bytes) {
        long arrival = System.nanoTime();
        int rank = communicator.rank();
        return new Observation() {
            private int contextId;
            private long sequence;

            /** On the communicator's context, to which the plan is confined. */
            @Override
            public void sequenced(int contextId, long sequence, CollectivePlan plan) {
                this.contextId = contextId;
                this.sequence = sequence;
                recorder.started(OperationStart.describe(contextId, sequence, operation, root, bytes, plan.epoch(), plan,
                        communicator.members()), rank, arrival);
            }

            @Override
            public void completed(Throwable failure) {
                recorder.completed(contextId, sequence, rank, System.nanoTime(), failure);
            }
        };
    }
}
