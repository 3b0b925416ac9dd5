package dev.canopy.gridconfig.internal.input;

import java.io.IOException;

/** A line is longer than the limit of its {@link BoundedLines}; no more than the limit was kept. */
public final class LineTooLongException extends IOException {

    private final long line;

    public LineTooLongException(long line, int limitChars) {
        super("line " + line + " is longer than " + limitChars + " characters");
        this.line = line;
    }

    /** The 1-based number of the long line. */
    public long line() {
        return line;
    }
}
