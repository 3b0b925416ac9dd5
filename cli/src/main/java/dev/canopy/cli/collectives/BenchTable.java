package dev.canopy.cli.collectives;

import io.vertx.core.json.JsonObject;
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
        table.append(String.format("%-10s ", "algorithm")).append(routed ? String.format("%-9s ", "exchange") : "")
                .append(pipelined ? String.format("%-8s ", "pipeline") : "")
                .append(String.format("%10s %11s %11s %14s %16s%n", "bytes", "median_ms", "p90_ms", "predicted_ms",
                        "lower_bound_ms"));
        for (Object entry : report.getJsonArray("results")) {
            JsonObject row = (JsonObject) entry;
            table.append(String.format("%-10s ", row.getString("algorithm")))
                    .append(routed ? String.format("%-9s ", row.getString("exchange")) : "")
                    .append(pipelined ? String.format("%-8s ", row.getString("pipeline")) : "")
                    .append(String.format("%10d %11.2f %11.2f %14.2f %16.2f%n", row.getInteger("bytes"),
                            row.getDouble("median_ms"), row.getDouble("p90_ms"), row.getDouble("predicted_ms"),
                            row.getDouble("lower_bound_ms")));
        }
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
