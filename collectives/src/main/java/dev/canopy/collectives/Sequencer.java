package dev.canopy.collectives;

/**
 * A communicator's collective sequence numbers, in the order its member starts collectives.
 * Used only on the communicator's context, so it needs no synchronisation.
 */
final class Sequencer {

    private int next;

    int next() {
        return next++;
    }
}
