package dev.canopy.dynamic;

/**
 * An inter-communicator operation failed on another member (its group's leader relayed why), or the
 * other group could not be reached; the message names the operation and the cause.
 */
public final class InterCommunicatorException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public InterCommunicatorException(String message) {
        super(message);
    }

    public InterCommunicatorException(String message, Throwable cause) {
        super(message, cause);
    }
}
