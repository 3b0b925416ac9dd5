package dev.canopy.gridconfig.internal.input;

import java.io.IOException;
import java.time.Duration;

/**
 * Nothing arrived for the idle timeout: a FIFO with no writer (whose open never returns), a terminal
 * on {@code /dev/stdin}, a pipe whose writer stopped.
 */
public final class InputStalledException extends IOException {

    public InputStalledException(Duration idleTimeout, long bytesRead) {
        super(bytesRead == 0
                ? "could not be opened or gave no data within " + idleTimeout.toMillis() + " ms (a FIFO or pipe with no writer?)"
                : "gave no more data within " + idleTimeout.toMillis() + " ms after " + bytesRead + " bytes (did its writer stop?)");
    }
}
