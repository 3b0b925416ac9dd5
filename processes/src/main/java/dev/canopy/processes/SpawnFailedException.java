package dev.canopy.processes;

/**
 * A spawn did not complete: no agent fits, a child could not start or exited, an agent died, or the children did
 * not all join in time. The message says which and what to do; whatever was started is killed by then.
 */
public final class SpawnFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SpawnFailedException(String message) {
        super(message);
    }

    public SpawnFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
