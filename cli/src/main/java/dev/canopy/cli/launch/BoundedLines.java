package dev.canopy.cli.launch;

import java.io.BufferedReader;
import java.io.IOException;

/** Reads lines of bounded length: a peer that never sends a newline cannot make this process buffer without end. */
final class BoundedLines {

    private BoundedLines() {
    }

    /**
     * The next line (without its end), cut at {@code maxChars} (the rest up to the newline is dropped), or null at the
     * end of input.
     */
    static String read(BufferedReader reader, int maxChars) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        boolean any = false;
        while ((c = reader.read()) >= 0) {
            any = true;
            if (c == '\n') {
                break;
            }
            if (line.length() < maxChars) {
                line.append((char) c);
            }
        }
        if (!any) {
            return null;
        }
        int end = line.length();
        return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
    }
}
