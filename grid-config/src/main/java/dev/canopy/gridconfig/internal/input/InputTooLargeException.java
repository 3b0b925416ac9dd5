package dev.canopy.gridconfig.internal.input;

import java.io.IOException;

/** The input holds more bytes than its limit; reading stopped at the limit plus one byte. */
public final class InputTooLargeException extends IOException {

    private final long limitBytes;

    public InputTooLargeException(long limitBytes) {
        super("is larger than " + limitBytes + " bytes");
        this.limitBytes = limitBytes;
    }

    public long limitBytes() {
        return limitBytes;
    }
}
