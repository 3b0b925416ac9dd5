package dev.canopy.cli.table;

import java.util.Locale;

/**
 * One column of a {@link TextTable}: its name, an optional unit shown after the name in the header, and the
 * one format of its cells. Text is left-aligned; numbers are right-aligned, all in the column's format.
 */
public record Column(String name, String unit, Kind kind, int places) {

    /** How a column shows its numbers. */
    public enum Kind { TEXT, INTEGER, DECIMAL, PERCENT }

    public Column {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a column needs a name");
        }
        if (places < 0) {
            throw new IllegalArgumentException("column " + name + ": " + places + " decimal places");
        }
    }

    /** Left-aligned text. */
    public static Column text(String name) {
        return new Column(name, null, Kind.TEXT, 0);
    }

    /** Right-aligned whole numbers; {@code unit} may be null. */
    public static Column integer(String name, String unit) {
        return new Column(name, unit, Kind.INTEGER, 0);
    }

    /** Right-aligned numbers with {@code places} decimals; {@code unit} may be null. */
    public static Column decimal(String name, String unit, int places) {
        return new Column(name, unit, Kind.DECIMAL, places);
    }

    /** A share between 0 and 1 shown as a right-aligned whole percentage ({@code 0.25} is {@code 25%}). */
    public static Column percent(String name) {
        return new Column(name, null, Kind.PERCENT, 0);
    }

    boolean numeric() {
        return kind != Kind.TEXT;
    }

    String header() {
        return unit == null ? name : name + " " + unit;
    }

    /**
     * The cell's text: {@link TextTable#MISSING} for null, NaN or blank values; a {@link Number} in the column's
     * format; anything else (a word in a number column, such as {@code loopback}) as it is.
     */
    String cell(Object value) {
        if (value == null || value instanceof Double d && d.isNaN() || value instanceof Float f && f.isNaN()
                || value.toString().isBlank()) {
            return TextTable.MISSING;
        }
        if (!(value instanceof Number number)) {
            return value.toString();
        }
        return switch (kind) {
            case TEXT -> number.toString();
            case INTEGER -> {
                if (!(number instanceof Integer || number instanceof Long)) {
                    throw new IllegalArgumentException("column " + name + " holds whole numbers, not " + value);
                }
                yield number.toString();
            }
            case DECIMAL -> String.format(Locale.ROOT, "%." + places + "f", number.doubleValue());
            case PERCENT -> String.format(Locale.ROOT, "%.0f%%", 100 * number.doubleValue());
        };
    }
}
