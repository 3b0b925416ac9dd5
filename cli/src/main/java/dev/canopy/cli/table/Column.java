package dev.canopy.cli.table;

import java.util.Locale;

/**
 * One column of a {@link TextTable}: its name, an optional unit shown after the name in the header, and how
 * its cells are formatted. Text is left-aligned; numbers are right-aligned, all in the column's one format.
 */
public record Column(String name, String unit, boolean numeric, String format) {

    public Column {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a column needs a name");
        }
    }

    /** Left-aligned text. */
    public static Column text(String name) {
        return new Column(name, null, false, "%s");
    }

    /** Right-aligned whole numbers; {@code unit} may be null. */
    public static Column integer(String name, String unit) {
        return new Column(name, unit, true, "%d");
    }

    /** Right-aligned numbers with {@code places} decimals; {@code unit} may be null. */
    public static Column decimal(String name, String unit, int places) {
        return new Column(name, unit, true, "%." + places + "f");
    }

    /** Right-aligned numbers in scientific notation with {@code places} decimals, as {@code 1.234e-05}. */
    public static Column scientific(String name, String unit, int places) {
        return new Column(name, unit, true, "%." + places + "e");
    }

    /** A share between 0 and 1 shown as a right-aligned whole percentage ({@code 0.25} is {@code 25%}). */
    public static Column percent(String name) {
        return new Column(name, null, true, "%.0f%%");
    }

    String header() {
        return unit == null ? name : name + " " + unit;
    }

    /**
     * The cell's text: {@link TextTable#MISSING} for null, NaN or blank values; a {@link Number} in the column's
     * format (a percent column scales the share by 100); anything else (a word in a number column, such as
     * {@code loopback}) as it is.
     */
    String cell(Object value) {
        if (value == null || value instanceof Double d && d.isNaN() || value instanceof Float f && f.isNaN()
                || value.toString().isBlank()) {
            return TextTable.MISSING;
        }
        if (value instanceof Number number && numeric) {
            if (!format.endsWith("d")) {
                return String.format(Locale.ROOT, format, (format.endsWith("%%") ? 100 : 1) * number.doubleValue());
            }
            if (!(number instanceof Integer || number instanceof Long)) {
                throw new IllegalArgumentException("column " + name + " holds whole numbers, not " + value);
            }
            return String.format(Locale.ROOT, format, number);
        }
        return value.toString();
    }
}
