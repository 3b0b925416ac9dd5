package dev.canopy.collectives;

import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.collectives.plan.CollectivePlan;

/**
 * Hears one member's collectives as its program calls them, for whoever keeps their timings (the dashboard's
 * skew reports, {@code dev.canopy.collectives.internal.timing}). {@link #started} runs on the program's thread when it calls
 * the operation; the {@link Observation} it returns hears the operation's sequence number on the communicator's
 * context before the operation's own work, and its completion there. Both run on an event loop: implementations
 * only note the figures (no I/O, no lock held for long).
 */
public interface CollectiveObserver {

    /** Observes nothing: the collectives' default. */
    CollectiveObserver NONE = (operation, root, bytes) -> Observation.NONE;

    /**
     * @param root the operation's root rank (0 for operations without one)
     * @param bytes this member's payload bytes (its contribution, or the root's data)
     */
    Observation started(Operation operation, int root, long bytes);

    /** One operation of this member, after its start. */
    interface Observation {

        Observation NONE = failure -> { };

        /**
         * The operation took {@code sequence} on communicator {@code contextId}, on {@code plan} (confined to the
         * communicator's context, where this runs). By default, {@link #sequenced(int, long, long)} with its epoch;
         * an observer that describes the operation from its trees (an in-process dashboard) overrides this one.
         */
        default void sequenced(int contextId, long sequence, CollectivePlan plan) {
            sequenced(contextId, sequence, plan.epoch());
        }

        /** The operation took {@code sequence} on communicator {@code contextId}, on the plan of {@code epoch}. */
        default void sequenced(int contextId, long sequence, long epoch) {
        }

        /**
         * It succeeded on {@code classPlan}: the plan of its message's size class when the plan has trees per size
         * ({@code CollectivePlan.forBytes}, as its root or every member picked it), else the plan itself. Heard just
         * before {@link #completed}, on the communicator's context.
         */
        default void ranOn(CollectivePlan classPlan) {
        }

        /** Its future completed here; {@code failure} is null when it succeeded. */
        void completed(Throwable failure);
    }
}
