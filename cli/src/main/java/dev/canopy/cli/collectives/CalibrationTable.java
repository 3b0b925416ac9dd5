package dev.canopy.cli.collectives;

import dev.canopy.cli.table.Column;
import dev.canopy.cli.table.TextTable;
import dev.canopy.collectives.internal.calibration.SegmentationStore;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** The calibration report as text: thresholds, then the scatter and gather curves before (and after). */
public final class CalibrationTable {

    private CalibrationTable() {
    }

    static String format(JsonObject report, String zooKeeper) {
        StringBuilder text = new StringBuilder();
        JsonObject thresholds = report.getJsonObject("thresholds");
        JsonObject detected = report.getJsonObject("detected");
        text.append("grid ").append(report.getString("grid")).append(", ").append(report.getInteger("processes"))
                .append(" processes\n");
        text.append("scatter leap S: ").append(describe(detected, thresholds, "S")).append('\n');
        text.append("gather escalations M1..M2: ").append(describe(detected, thresholds, "M1")).append('\n');
        text.append(zooKeeper == null ? "not stored (give --zk to store them with the grid's configuration)\n"
                : "stored in ZooKeeper " + zooKeeper + " at " + SegmentationStore.path(report.getString("grid")) + "\n");
        for (String phase : new String[] {"before", "after"}) {
            if (report.containsKey(phase)) {
                text.append('\n').append(phase.equals("before") ? "native operations" : "with the thresholds applied")
                        .append('\n');
                text.append(curves(report.getJsonObject(phase)));
            }
        }
        return text.toString();
    }

    /** One phase's scatter and gather curves ({@code "scatter"} and {@code "gather"} arrays), one row per size. */
    public static String curves(JsonObject phase) {
        TextTable table = TextTable.of(Column.integer("bytes", null), Column.decimal("scatter_med", null, 2),
                Column.decimal("scatter_p90", null, 2), Column.decimal("gather_med", null, 2),
                Column.decimal("gather_p90", null, 2), Column.percent("escalated"));
        JsonArray scatter = phase.getJsonArray("scatter");
        JsonArray gather = phase.getJsonArray("gather");
        for (int i = 0; i < scatter.size(); i++) {
            JsonObject s = scatter.getJsonObject(i);
            JsonObject g = gather.getJsonObject(i);
            table.row(s.getLong("bytes"), s.getDouble("median_ms"), s.getDouble("p90_ms"), g.getDouble("median_ms"),
                    g.getDouble("p90_ms"), g.getDouble("escalated_share"));
        }
        return table.render();
    }

    private static String describe(JsonObject detected, JsonObject kept, String key) {
        if (!detected.containsKey(key)) {
            return "none detected";
        }
        String value = key.equals("S") ? detected.getLong("S") + " B"
                : detected.getLong("M1") + " B .. " + detected.getLong("M2") + " B";
        return kept.containsKey(key) ? value + " (kept: splitting made it faster)"
                : value + " detected, not kept: splitting made it slower on this grid";
    }
}
