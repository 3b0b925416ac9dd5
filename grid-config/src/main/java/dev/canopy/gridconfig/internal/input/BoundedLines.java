package dev.canopy.gridconfig.internal.input;

import java.io.IOException;
import java.io.Reader;

/**
 * Lines of a {@link Reader} ({@code \n}, {@code \r\n} or {@code \r} ends one), each at most a given
 * number of characters: a longer line fails with {@link LineTooLongException} after reading no more
 * than the limit, where {@code BufferedReader.readLine} would hold all of a 300 MB line. Not thread-safe.
 */
public final class BoundedLines {

    private final Reader reader;
    private final int maxChars;
    private final char[] buffer = new char[8192];
    private int position;
    private int limit;
    private long lineNumber;
    private boolean skipNewline;

    public BoundedLines(Reader reader, int maxChars) {
        if (maxChars < 1) {
            throw new IllegalArgumentException("a line limit must be at least 1 character, got " + maxChars);
        }
        this.reader = reader;
        this.maxChars = maxChars;
    }

    /** The number of the line last returned, from 1. */
    public long lineNumber() {
        return lineNumber;
    }

    /**
     * The next line without its line terminator, or null at the end of the input.
     *
     * @throws LineTooLongException when the line has more than the limit's characters
     */
    public String next() throws IOException {
        StringBuilder line = null;
        while (true) {
            if (position == limit && !fill()) {
                if (line == null) {
                    return null;
                }
                lineNumber++;
                return line.toString();
            }
            if (skipNewline) {
                skipNewline = false;
                if (buffer[position] == '\n') {
                    position++;
                    continue;
                }
            }
            if (line == null) {
                line = new StringBuilder();
            }
            int start = position;
            while (position < limit && buffer[position] != '\n' && buffer[position] != '\r') {
                position++;
            }
            if (line.length() + position - start > maxChars) {
                throw new LineTooLongException(lineNumber + 1, maxChars);
            }
            line.append(buffer, start, position - start);
            if (position < limit) {
                skipNewline = buffer[position] == '\r';
                position++;
                lineNumber++;
                return line.toString();
            }
        }
    }

    private boolean fill() throws IOException {
        int read;
        do {
            read = reader.read(buffer, 0, buffer.length);
        } while (read == 0);
        position = 0;
        limit = Math.max(read, 0);
        return read > 0;
    }
}
