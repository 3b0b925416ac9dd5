package dev.canopy.topology.internal.graph;

import dev.canopy.gridconfig.Excerpt;
import dev.canopy.gridconfig.internal.input.BoundedInput;
import dev.canopy.gridconfig.internal.input.BoundedLines;
import dev.canopy.gridconfig.internal.input.InputStalledException;
import dev.canopy.gridconfig.internal.input.InputTooLargeException;
import dev.canopy.gridconfig.internal.input.LineTooLongException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * Reads a latency CSV ({@code from,to,rtt_ms}, one measured directed pair per line, see
 * {@code shared/latency/README.md}) into a {@link LatencyGraph}. Names may contain spaces but never
 * commas; missing pairs are allowed. Every error names the source and line and says what was expected.
 *
 * <p>Every read is bounded, whatever the input is: at most {@link #MAX_BYTES} bytes (a device or a
 * pipe too), lines of at most {@link #MAX_LINE_CHARS} characters (a 300 MB line is refused after 1,024
 * characters, never held whole), names of at most {@link #MAX_NAME_CHARS} characters and at most
 * {@link #MAX_NODES} nodes. Text echoed in errors is cut ({@link Excerpt}).
 */
public final class LatencyCsvReader {

    public static final String HEADER = "from,to,rtt_ms";

    /** The largest CSV read: a full matrix of about 1,800 nodes, or far more nodes when sparse. */
    public static final long MAX_BYTES = 64L * 1024 * 1024;
    /** The longest line: two names and a number, with room to spare. */
    public static final int MAX_LINE_CHARS = 1024;
    /** The longest node name. */
    public static final int MAX_NAME_CHARS = 256;
    /** The most distinct nodes in one CSV. */
    public static final int MAX_NODES = 100_000;

    /** Plain decimal milliseconds, as in the shared data: no exponent, no thousands separator. */
    private static final char REPLACEMENT = '\uFFFD';

    private static final Pattern DECIMAL = Pattern.compile("-?(\\d+\\.?\\d*|\\.\\d+)");

    private LatencyCsvReader() {
    }

    /**
     * @throws LatencyCsvException when the file is missing, unreadable, too large or malformed
     */
    public static LatencyGraph read(Path file) {
        return read(file, BoundedInput.DEFAULT_IDLE_TIMEOUT);
    }

    /**
     * Reads {@code file}, giving up when no byte arrives for {@code idleTimeout} (a FIFO with no writer).
     *
     * @throws LatencyCsvException when the file is missing, unreadable, too large, stalled or malformed
     */
    public static LatencyGraph read(Path file, Duration idleTimeout) {
        if (Files.isDirectory(file)) {
            throw new LatencyCsvException(file + ": is a directory; pass a CSV with header " + HEADER);
        }
        try (InputStream in = BoundedInput.open(file, MAX_BYTES, idleTimeout)) {
            return read(new InputStreamReader(in, StandardCharsets.UTF_8), file.toString());
        } catch (UncheckedIOException e) {
            throw failure(file, e.getCause());
        } catch (IOException e) {
            throw failure(file, e);
        }
    }

    private static LatencyCsvException failure(Path file, IOException e) {
        if (e instanceof NoSuchFileException) {
            return new LatencyCsvException(file + ": no such file; pass a CSV with header " + HEADER);
        }
        if (e instanceof InputTooLargeException) {
            return new LatencyCsvException(file + ": is larger than " + MAX_BYTES + " bytes, the most a latency CSV may have");
        }
        if (e instanceof InputStalledException) {
            return new LatencyCsvException(file + ": " + e.getMessage());
        }
        return new LatencyCsvException(file + ": cannot read (" + Excerpt.of(String.valueOf(e.getMessage())) + ")");
    }

    /**
     * @param source how errors name the input, e.g. its path
     * @throws LatencyCsvException when the input is malformed
     * @throws UncheckedIOException when reading fails
     */
    public static LatencyGraph read(Reader input, String source) {
        BoundedLines lines = new BoundedLines(input, MAX_LINE_CHARS);
        try {
            String header = nextLine(lines, source);
            if (header == null) {
                throw new LatencyCsvException(source + ": empty file; expected the header " + HEADER);
            }
            if (!stripBom(header).strip().equals(HEADER)) {
                throw new LatencyCsvException(source + ":1: header is '" + Excerpt.of(header.strip()) + "'; expected exactly " + HEADER);
            }
            LatencyGraph.Builder builder = LatencyGraph.builder();
            for (String row = nextLine(lines, source); row != null; row = nextLine(lines, source)) {
                if (!row.isBlank()) {
                    addRow(builder, row, source + ":" + lines.lineNumber());
                }
            }
            return builder.build();
        } catch (LineTooLongException e) {
            throw new LatencyCsvException(source + ":" + e.line() + ": line is longer than " + MAX_LINE_CHARS
                    + " characters; a row is from,to,rtt_ms with names of at most " + MAX_NAME_CHARS + " characters");
        } catch (IOException e) {
            throw new UncheckedIOException(source + ": read failed", e);
        }
    }

    /**
     * The next line; bytes that are not UTF-8 were decoded as U+FFFD (the decoder reads ahead, so
     * only here is their line known).
     */
    private static String nextLine(BoundedLines lines, String source) throws IOException {
        String line = lines.next();
        if (line != null && line.indexOf(REPLACEMENT) >= 0) {
            throw new LatencyCsvException(source + ":" + lines.lineNumber() + ": is not UTF-8 text");
        }
        return line;
    }

    private static void addRow(LatencyGraph.Builder builder, String row, String place) {
        String[] fields = row.split(",", -1);
        if (fields.length != 3) {
            throw new LatencyCsvException(place + ": expected 3 fields from,to,rtt_ms but found " + fields.length
                    + " in '" + Excerpt.of(row) + "' (names must not contain commas)");
        }
        String from = name(fields[0], "from", place);
        String to = name(fields[1], "to", place);
        double rtt = rtt(fields[2], place);
        if (from.equals(to)) {
            throw new LatencyCsvException(place + ": self pair '" + Excerpt.of(from) + "'; omit the diagonal");
        }
        if (builder.hasRtt(from, to)) {
            throw new LatencyCsvException(place + ": pair '" + Excerpt.of(from) + "' -> '" + Excerpt.of(to)
                    + "' appears twice; keep one row per directed pair");
        }
        if (builder.nodeCount() + newNodes(builder, from, to) > MAX_NODES) {
            throw new LatencyCsvException(place + ": more than " + MAX_NODES + " nodes; a latency CSV names at most "
                    + MAX_NODES + " (plan larger grids hierarchically, one CSV per group)");
        }
        builder.addRtt(from, to, rtt);
    }

    private static int newNodes(LatencyGraph.Builder builder, String from, String to) {
        return (builder.contains(from) ? 0 : 1) + (builder.contains(to) ? 0 : 1);
    }

    private static String name(String field, String column, String place) {
        if (field.isEmpty()) {
            throw new LatencyCsvException(place + ": column " + column + " is empty; expected a node name");
        }
        if (field.length() > MAX_NAME_CHARS) {
            throw new LatencyCsvException(place + ": node name '" + Excerpt.of(field) + "' in column " + column
                    + " is longer than " + MAX_NAME_CHARS + " characters; use shorter names");
        }
        if (!field.strip().equals(field)) {
            throw new LatencyCsvException(place + ": node name '" + Excerpt.of(field) + "' in column " + column
                    + " has leading or trailing spaces; remove them (spaces inside names are fine)");
        }
        return field;
    }

    private static double rtt(String field, String place) {
        String text = field.strip();
        if (!DECIMAL.matcher(text).matches()) {
            throw new LatencyCsvException(place + ": rtt_ms '" + Excerpt.of(field) + "' is not a number; expected milliseconds like 12.5");
        }
        if (text.startsWith("-")) {
            throw new LatencyCsvException(place + ": rtt_ms " + Excerpt.of(text) + " is negative; a round-trip time is at least 0 ms");
        }
        double rtt = Double.parseDouble(text);
        if (!Double.isFinite(rtt)) {
            throw new LatencyCsvException(place + ": rtt_ms " + Excerpt.of(text) + " is too large; expected milliseconds like 12.5");
        }
        return rtt;
    }

    private static String stripBom(String line) {
        return line.startsWith("\uFEFF") ? line.substring(1) : line;
    }
}
