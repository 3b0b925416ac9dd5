package dev.canopy.cli.table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The one table style of the CLI's human-readable output: a header line of column names (with their units),
 * then one line per row. Each column is as wide as its widest cell or header; columns are separated by two
 * spaces; text is left-aligned and numbers right-aligned; a missing value is {@value #MISSING}, so a row never
 * has an empty cell; no line ends in spaces. The {@code --json} outputs are separate and do not use this.
 */
public final class TextTable {

    /** What a missing value (null, NaN, blank) shows as. */
    public static final String MISSING = "-";

    private static final String GAP = "  ";

    private final List<Column> columns;
    private final List<String[]> rows = new ArrayList<>();

    private TextTable(List<Column> columns) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a table needs at least one column");
        }
        this.columns = List.copyOf(columns);
    }

    public static TextTable of(Column... columns) {
        return new TextTable(Arrays.asList(columns));
    }

    public static TextTable of(List<Column> columns) {
        return new TextTable(columns);
    }

    /** Adds a row: one value per column, in column order; null for a missing value. */
    public TextTable row(Object... values) {
        if (values.length != columns.size()) {
            throw new IllegalArgumentException("a row of " + values.length + " values for " + columns.size() + " columns");
        }
        String[] cells = new String[values.length];
        for (int i = 0; i < values.length; i++) {
            cells[i] = columns.get(i).cell(values[i]);
        }
        rows.add(cells);
        return this;
    }

    /** Adds a row of values given as a list (see {@link #row(Object...)}). */
    public TextTable row(List<?> values) {
        return row(values.toArray());
    }

    /** The header and the rows, each line ending in a newline. */
    public String render() {
        int[] widths = new int[columns.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = columns.get(i).header().length();
        }
        for (String[] cells : rows) {
            for (int i = 0; i < widths.length; i++) {
                widths[i] = Math.max(widths[i], cells[i].length());
            }
        }
        StringBuilder text = new StringBuilder();
        line(text, columns.stream().map(Column::header).toArray(String[]::new), widths);
        rows.forEach(cells -> line(text, cells, widths));
        return text.toString();
    }

    private void line(StringBuilder text, String[] cells, int[] widths) {
        int start = text.length();
        for (int i = 0; i < cells.length; i++) {
            String padding = " ".repeat(widths[i] - cells[i].length());
            text.append(i == 0 ? "" : GAP).append(columns.get(i).numeric() ? padding + cells[i] : cells[i] + padding);
        }
        int end = text.length();
        while (end > start && text.charAt(end - 1) == ' ') {
            end--;
        }
        text.setLength(end);
        text.append('\n');
    }
}
