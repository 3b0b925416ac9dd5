package dev.canopy.cli.bench.segmentation;

import dev.canopy.cli.collectives.CalibrationTable;
import dev.canopy.cli.table.Column;
import dev.canopy.cli.table.TextTable;
import io.vertx.core.json.JsonObject;
import java.util.Locale;

/** {@code canopy bench segmentation}'s table: the cluster, the thresholds, then one row per operation and size. */
final class SegmentationBenchTable {

    private SegmentationBenchTable() {
    }

    static String format(SegmentationReport report) {
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "%d hosts on one switch, links %d Mbit/s, port queue %d packets (drop-tail)%n",
                report.hosts(), report.link().rateMbit(), report.link().queuePackets()));
        text.append("scatter leap S: ").append(threshold(report, "S")).append('\n');
        text.append("gather escalations M1..M2: ").append(report.used().containsKey("M1")
                ? report.used().getLong("M1") + " B .. " + report.used().getLong("M2") + " B" + kept(report, "M1")
                : "none detected").append('\n');
        text.append("stored in the job's ZooKeeper; the optimised runs read them as every joining session does\n\n");
        TextTable table = TextTable.of(Column.text("op"), Column.integer("bytes", null),
                Column.decimal("native_med", null, 2), Column.decimal("native_p90", null, 2),
                Column.decimal("optim_med", null, 2), Column.decimal("optim_p90", null, 2),
                Column.decimal("p90_ratio", null, 2), Column.percent("escalated"));
        for (SegmentationReport.Row row : report.rows()) {
            table.row(row.op(), row.bytes(), row.nativeMedian(), row.nativeP90(), row.optimisedMedian(),
                    row.optimisedP90(), row.optimisedP90() / row.nativeP90(),
                    row.op().equals("gather") ? row.nativeEscalatedShare() : 0.0);
        }
        text.append(table.render());
        text.append("times in ms on the root, barrier to barrier; p90_ratio = optimised / native p90;"
                + " escalated = native gather samples on an escalated level\n");
        if (report.calibration().containsKey("before")) {
            appendCalibration(text, report.calibration().getJsonObject("before"));
        }
        return text.toString();
    }

    /** The calibration's native curves, in which S, M1 and M2 were detected. */
    private static void appendCalibration(StringBuilder text, JsonObject curves) {
        text.append("\ncalibration (native, the samples the thresholds were detected in)\n");
        text.append(CalibrationTable.curves(curves));
    }

    private static String threshold(SegmentationReport report, String key) {
        return report.used().containsKey(key) ? report.used().getLong(key) + " B" + kept(report, key) : "none detected";
    }

    private static String kept(SegmentationReport report, String key) {
        return report.kept().containsKey(key) ? " (kept: the split was faster)"
                : " (not kept: the split was slower in this comparison)";
    }
}
