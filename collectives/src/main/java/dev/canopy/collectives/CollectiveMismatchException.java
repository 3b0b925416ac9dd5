package dev.canopy.collectives;

/**
 * Members of a communicator did not start the same collectives in the same order (or used different
 * plans): a bug in the program, reported with what each side was running.
 */
public final class CollectiveMismatchException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public CollectiveMismatchException(String message) {
        super(message);
    }
}
