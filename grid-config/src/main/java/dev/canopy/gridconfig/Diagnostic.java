package dev.canopy.gridconfig;

import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;

/**
 * One problem found in a level file, located by 1-based line and column. A problem that concerns
 * the whole file (it cannot be read) has line and column 0.
 *
 * @param hint what the user probably meant (e.g. {@code did you mean "heavy_wan"?}), or empty
 */
public record Diagnostic(String file, int line, int column, String message, Optional<String> hint)
        implements Comparable<Diagnostic> {

    private static final Comparator<Diagnostic> ORDER = Comparator.comparingInt(Diagnostic::line)
            .thenComparingInt(Diagnostic::column)
            .thenComparing(Diagnostic::message);

    public Diagnostic {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(hint, "hint");
    }

    public Diagnostic(String file, int line, int column, String message) {
        this(file, line, column, message, Optional.empty());
    }

    /** A problem with the file as a whole, e.g. it does not exist. */
    public static Diagnostic ofFile(String file, String message) {
        return new Diagnostic(file, 0, 0, message);
    }

    /** {@code FILE:LINE:COLUMN: error: message; hint}, the form compilers use and editors link. */
    public String format() {
        String place = line > 0 ? file + ":" + line + ":" + column : file;
        return place + ": error: " + message + hint.map(h -> "; " + h).orElse("");
    }

    @Override
    public int compareTo(Diagnostic other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return format();
    }
}
