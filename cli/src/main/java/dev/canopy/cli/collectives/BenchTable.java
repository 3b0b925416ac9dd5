package dev.canopy.cli.collectives;

import dev.canopy.cli.table.Column;
import dev.canopy.cli.table.TextTable;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The benchmark report as a text table, one row per algorithm, exchange route (alltoall(v) only), pipelining (when compared) and size. */
final class BenchTable {

    private BenchTable() {
    }

    static String format(JsonObject report) {
        StringBuilder table = new StringBuilder();
        table.append(String.format("%s from rank %d (site %s), %d processes, %d iterations, %s%n", report.getString("op"),
                report.getInteger("root"), report.getString("root_site"), report.getInteger("processes"),
                report.getInteger("iterations"), report.getString("date")));
        boolean routed = report.getJsonArray("results").stream().anyMatch(row -> ((JsonObject) row).containsKey("exchange"));
        boolean pipelined = report.getJsonArray("results").stream().anyMatch(row -> ((JsonObject) row).containsKey("pipeline"));
        List<Column> columns = new ArrayList<>(List.of(Column.text("algorithm")));
        if (routed) {
            columns.add(Column.text("exchange"));
        }
        if (pipelined) {
            columns.add(Column.text("pipeline"));
        }
        columns.addAll(List.of(Column.integer("bytes", null), Column.decimal("median_ms", null, 2),
                Column.decimal("p90_ms", null, 2), Column.decimal("predicted_ms", null, 2),
                Column.decimal("lower_bound_ms", null, 2)));
        TextTable rows = TextTable.of(columns);
        for (Object entry : report.getJsonArray("results")) {
            JsonObject row = (JsonObject) entry;
            List<Object> values = new ArrayList<>(List.of(row.getString("algorithm")));
            if (routed) {
                values.add(row.getString("exchange"));
            }
            if (pipelined) {
                values.add(row.getString("pipeline"));
            }
            values.addAll(Arrays.asList(row.getInteger("bytes"), row.getDouble("median_ms"), row.getDouble("p90_ms"),
                    row.getDouble("predicted_ms"), row.getDouble("lower_bound_ms")));
            rows.row(values);
        }
        table.append(rows.render());
        // after the rows, so the header stays the table's second line
        JsonObject loggp = report.getJsonObject("loggp");
        if (loggp != null) {
            table.append(String.format(Locale.ROOT, "predicted with LogGP (%s): o = %.4f ms, g = %.4f ms, G = %.3e ms/B, L %s%n",
                    loggp.getString("source"), loggp.getDouble("overhead_ms"), loggp.getDouble("gap_ms"),
                    loggp.getDouble("per_byte_ms"), loggp.getJsonObject("latency_ms").encode()));
        }
        return table.toString();
    }
}
