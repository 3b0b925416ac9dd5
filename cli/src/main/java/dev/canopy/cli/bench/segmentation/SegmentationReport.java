package dev.canopy.cli.bench.segmentation;

import dev.canopy.multicast.internal.fabric.udp.LinkShape;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The outcome of {@code canopy bench segmentation}, read from the root's result: the cluster, the thresholds the
 * optimised runs used (detected by the calibration, read back from ZooKeeper), those kept after the comparison,
 * the rows, the native gather's escalated share per size, and the calibration's own curves (for the table).
 */
record SegmentationReport(int hosts, LinkShape link, JsonObject used, JsonObject kept, List<Row> rows,
        JsonObject calibration) {

    /** One operation at one size: native and optimised median and p90 in ms, and the native escalated share. */
    record Row(String op, long bytes, double nativeMedian, double nativeP90, double optimisedMedian, double optimisedP90,
            double nativeEscalatedShare) {

        JsonObject toJson() {
            return new JsonObject().put("op", op).put("bytes", bytes)
                    .put("native_median_ms", nativeMedian).put("native_p90_ms", nativeP90)
                    .put("optimised_median_ms", optimisedMedian).put("optimised_p90_ms", optimisedP90);
        }
    }

    private static final List<String> OPS = List.of("scatter", "gather");

    /** {@code root}: the root member's result line ({@link SegmentationBenchMember}). */
    static SegmentationReport of(int hosts, LinkShape link, JsonObject root) {
        JsonObject comparison = root.getJsonObject("comparison");
        JsonObject before = comparison.getJsonObject("before");
        JsonObject after = comparison.getJsonObject("after");
        List<Row> rows = new ArrayList<>();
        for (String op : OPS) {
            JsonArray nativePoints = before.getJsonArray(op);
            JsonArray optimisedPoints = after.getJsonArray(op);
            for (int i = 0; i < nativePoints.size(); i++) {
                JsonObject n = nativePoints.getJsonObject(i);
                JsonObject o = optimisedPoints.getJsonObject(i);
                rows.add(new Row(op, n.getLong("bytes"), n.getDouble("median_ms"), n.getDouble("p90_ms"),
                        o.getDouble("median_ms"), o.getDouble("p90_ms"), n.getDouble("escalated_share")));
            }
        }
        return new SegmentationReport(hosts, link, root.getJsonObject("used"), comparison.getJsonObject("thresholds"), rows,
                root.getJsonObject("calibration", new JsonObject()));
    }

    /** The JSON of {@code --json}: hosts, link, thresholds (null where none was found), results. */
    JsonObject toJson() {
        JsonArray results = new JsonArray();
        rows.forEach(row -> results.add(row.toJson()));
        return new JsonObject().put("hosts", hosts)
                .put("link", new JsonObject().put("rate_mbit", link.rateMbit()).put("queue_packets", link.queuePackets()))
                .put("thresholds", new JsonObject().put("S", used.getLong("S")).put("M1", used.getLong("M1"))
                        .put("M2", used.getLong("M2")))
                .put("results", results);
    }
}
