package dev.canopy.topology.graph;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Reads a latency CSV ({@code from,to,rtt_ms}, one measured directed pair per line, see
 * {@code shared/latency/README.md}) into a {@link LatencyGraph}. Names may contain spaces but never
 * commas; missing pairs are allowed. Every error names the source and line and says what was expected.
 */
public final class LatencyCsvReader {

    public static final String HEADER = "from,to,rtt_ms";

    /** Plain decimal milliseconds, as in the shared data: no exponent, no thousands separator. */
    private static final Pattern DECIMAL = Pattern.compile("-?(\\d+\\.?\\d*|\\.\\d+)");

    private LatencyCsvReader() {
    }

    /**
     * @throws LatencyCsvException when the file is missing, unreadable or malformed
     */
    public static LatencyGraph read(Path file) {
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(reader, file.toString());
        } catch (NoSuchFileException e) {
            throw new LatencyCsvException(file + ": no such file; pass a CSV with header " + HEADER);
        } catch (IOException e) {
            throw new LatencyCsvException(file + ": cannot read (" + e.getMessage() + ")");
        }
    }

    /**
     * @param source how errors name the input, e.g. its path
     * @throws LatencyCsvException when the input is malformed
     */
    public static LatencyGraph read(Reader input, String source) {
        BufferedReader reader = input instanceof BufferedReader buffered ? buffered : new BufferedReader(input);
        try {
            String header = reader.readLine();
            if (header == null) {
                throw new LatencyCsvException(source + ": empty file; expected the header " + HEADER);
            }
            if (!stripBom(header).strip().equals(HEADER)) {
                throw new LatencyCsvException(source + ":1: header is '" + header.strip() + "'; expected exactly " + HEADER);
            }
            LatencyGraph.Builder builder = LatencyGraph.builder();
            int lineNumber = 1;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lineNumber++;
                String row = stripCr(line);
                if (!row.isBlank()) {
                    addRow(builder, row, source + ":" + lineNumber);
                }
            }
            return builder.build();
        } catch (IOException e) {
            throw new UncheckedIOException(source + ": read failed", e);
        }
    }

    private static void addRow(LatencyGraph.Builder builder, String row, String place) {
        String[] fields = row.split(",", -1);
        if (fields.length != 3) {
            throw new LatencyCsvException(place + ": expected 3 fields from,to,rtt_ms but found " + fields.length
                    + " in '" + row + "' (names must not contain commas)");
        }
        String from = name(fields[0], "from", place);
        String to = name(fields[1], "to", place);
        double rtt = rtt(fields[2], place);
        if (from.equals(to)) {
            throw new LatencyCsvException(place + ": self pair '" + from + "'; omit the diagonal");
        }
        if (builder.hasRtt(from, to)) {
            throw new LatencyCsvException(place + ": pair '" + from + "' -> '" + to + "' appears twice; keep one row per directed pair");
        }
        builder.addRtt(from, to, rtt);
    }

    private static String name(String field, String column, String place) {
        if (field.isEmpty()) {
            throw new LatencyCsvException(place + ": column " + column + " is empty; expected a node name");
        }
        if (!field.strip().equals(field)) {
            throw new LatencyCsvException(place + ": node name '" + field + "' in column " + column
                    + " has leading or trailing spaces; remove them (spaces inside names are fine)");
        }
        return field;
    }

    private static double rtt(String field, String place) {
        String text = field.strip();
        if (!DECIMAL.matcher(text).matches()) {
            throw new LatencyCsvException(place + ": rtt_ms '" + field + "' is not a number; expected milliseconds like 12.5");
        }
        if (text.startsWith("-")) {
            throw new LatencyCsvException(place + ": rtt_ms " + text + " is negative; a round-trip time is at least 0 ms");
        }
        return Double.parseDouble(text);
    }

    private static String stripCr(String line) {
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }

    private static String stripBom(String line) {
        return line.startsWith("\uFEFF") ? line.substring(1) : line;
    }
}
