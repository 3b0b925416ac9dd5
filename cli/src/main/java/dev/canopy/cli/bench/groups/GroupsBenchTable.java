package dev.canopy.cli.bench.groups;

import io.vertx.core.json.JsonArray;
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
        text.append(report.getString("auto_model")).append(System.lineSeparator()).append(System.lineSeparator());
        text.append(String.format(Locale.ROOT, "%-15s %10s  %-10s %10s %10s %10s%n", "operation", "bytes/recv", "policy",
                "median ms", "avg ms", "max ms"));
        JsonArray results = report.getJsonArray("results");
        for (int i = 0; i < results.size(); i++) {
            JsonObject row = results.getJsonObject(i);
            text.append(String.format(Locale.ROOT, "%-15s %10d  %-10s %10.3f %10.3f %10.3f%n", row.getString("operation"),
                    row.getInteger("bytes_per_receiver"), row.getString("policy"), row.getDouble("median_ms"),
                    row.getDouble("avg_completion_ms"), row.getDouble("max_completion_ms")));
        }
        text.append(System.lineSeparator()).append(String.format(Locale.ROOT, "%-10s %10s %10s %8s %8s%n",
                "policy", "create ms", "destroy ms", "creates", "destroys"));
        JsonArray management = report.getJsonArray("management");
        for (int i = 0; i < management.size(); i++) {
            JsonObject entry = management.getJsonObject(i);
            text.append(String.format(Locale.ROOT, "%-10s %10.3f %10.3f %8d %8d%n", entry.getString("policy"),
                    entry.getDouble("create_ms"), entry.getDouble("destroy_ms"), entry.getLong("creates"),
                    entry.getLong("destroys")));
        }
        return text.toString();
    }
}
