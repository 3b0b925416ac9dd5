package dev.canopy.dynamic;

/** A dynamic-process call ran past {@link DynamicOptions#timeout()}; the message says what it waited for. */
public final class DynamicTimeoutException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DynamicTimeoutException(String message) {
        super(message);
    }
}
