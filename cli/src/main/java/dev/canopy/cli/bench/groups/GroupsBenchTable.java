package dev.canopy.cli.bench.groups;

import dev.canopy.cli.table.Column;
import dev.canopy.cli.table.TextTable;
import io.vertx.core.json.JsonObject;
import java.util.Locale;

/** The text form of {@code canopy bench groups}: a header, one line per result, then the management costs. */
final class GroupsBenchTable {

    private GroupsBenchTable() {
    }

    static String format(JsonObject report) {
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "%d members, fabric %s, root 0, %d iterations, %s (%s)%n",
                report.getInteger("members"), report.getString("fabric"), report.getInteger("iterations"),
                report.getString("date"), report.getString("machine")));
        if (report.getString("fallback") != null) {
            text.append(report.getString("fallback")).append(System.lineSeparator());
        }
        text.append("auto at open: ").append(report.getString("auto_calibrated")).append(System.lineSeparator())
                .append("auto at the end: ").append(report.getString("auto_model")).append(System.lineSeparator())
                .append(System.lineSeparator());
        TextTable results = TextTable.of(Column.text("operation"), Column.integer("bytes/recv", null),
                Column.text("policy"), Column.decimal("median", "ms", 3), Column.decimal("avg", "ms", 3),
                Column.decimal("max", "ms", 3), Column.text("auto chose"));
        for (Object entry : report.getJsonArray("results")) {
            JsonObject row = (JsonObject) entry;
            results.row(row.getString("operation"), row.getInteger("bytes_per_receiver"), row.getString("policy"),
                    row.getDouble("median_ms"), row.getDouble("avg_completion_ms"), row.getDouble("max_completion_ms"),
                    choices(row.getJsonObject("auto_choices")));
        }
        TextTable management = TextTable.of(Column.text("policy"), Column.decimal("create", "ms", 3),
                Column.decimal("destroy", "ms", 3), Column.integer("creates", null), Column.integer("destroys", null));
        for (Object entry : report.getJsonArray("management")) {
            JsonObject row = (JsonObject) entry;
            management.row(row.getString("policy"), row.getDouble("create_ms"), row.getDouble("destroy_ms"),
                    row.getLong("creates"), row.getLong("destroys"));
        }
        text.append(results.render()).append(System.lineSeparator()).append(management.render());
        return text.toString();
    }

    /** auto's choices in a cell, e.g. "static 9, tree 4"; empty for the other policies. */
    private static String choices(JsonObject choices) {
        if (choices == null) {
            return "";
        }
        StringBuilder text = new StringBuilder();
        choices.forEach(entry -> text.append(text.isEmpty() ? "" : ", ").append(entry.getKey()).append(' ')
                .append(entry.getValue()));
        return text.toString();
    }
}
