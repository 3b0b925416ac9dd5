package dev.canopy.cli.bench.segmentation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.plot.BenchPlots;
import dev.canopy.multicast.internal.fabric.udp.LinkShape;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** The JSON of {@code canopy bench segmentation --json}: exactly the fields, null for a missing threshold. */
class SegmentationReportTest {

    @Test
    void theJsonHasExactlyTheContractFieldsAndNullWhereNothingWasFound() {
        SegmentationReport report = SegmentationReport.of(16, new LinkShape(1000, 32), rootResult(
                new JsonObject().put("M1", 4096).put("M2", 65536), new JsonObject().put("M1", 4096).put("M2", 65536)));

        JsonObject json = report.toJson();

        assertContractShape(json, 16, 1000, 32);
        assertThat(json.getJsonObject("thresholds").getValue("S")).isNull();
        assertThat(json.getJsonObject("thresholds").getLong("M1")).isEqualTo(4096);
        assertThat(json.getJsonObject("thresholds").getLong("M2")).isEqualTo(65536);
        JsonObject gather4k = json.getJsonArray("results").stream().map(JsonObject.class::cast)
                .filter(row -> row.getString("op").equals("gather") && row.getLong("bytes") == 4096).findFirst().orElseThrow();
        assertThat(gather4k.getDouble("native_p90_ms")).isEqualTo(210.0);
        assertThat(gather4k.getDouble("optimised_p90_ms")).isEqualTo(6.0);
    }

    @Test
    void theTableSaysWhatWasKeptAndThePlotDrawsBothMethods() {
        SegmentationReport report = SegmentationReport.of(16, new LinkShape(1000, 32), rootResult(
                new JsonObject().put("S", 65536).put("M1", 4096).put("M2", 65536), new JsonObject().put("M1", 4096).put("M2", 65536)));

        String table = SegmentationBenchTable.format(report);

        assertThat(table).contains("16 hosts on one switch, links 1000 Mbit/s, port queue 32 packets")
                .contains("scatter leap S: 65536 B (not kept").contains("gather escalations M1..M2: 4096 B .. 65536 B (kept");
        assertThat(BenchPlots.segmentation(report.toJson()).render()).contains("gather native").contains("scatter optimised")
                .contains("M1=4096");
    }

    static void assertContractShape(JsonObject json, int hosts, int rateMbit, int queuePackets) {
        assertThat(json.fieldNames()).containsExactlyInAnyOrder("hosts", "link", "thresholds", "results");
        assertThat(json.getInteger("hosts")).isEqualTo(hosts);
        assertThat(json.getJsonObject("link").getMap()).containsOnlyKeys("rate_mbit", "queue_packets")
                .containsEntry("rate_mbit", rateMbit).containsEntry("queue_packets", queuePackets);
        assertThat(json.getJsonObject("thresholds").fieldNames()).containsExactlyInAnyOrder("S", "M1", "M2");
        for (Object entry : json.getJsonArray("results")) {
            JsonObject row = (JsonObject) entry;
            assertThat(row.fieldNames()).containsExactlyInAnyOrder("op", "bytes", "native_median_ms", "native_p90_ms",
                    "optimised_median_ms", "optimised_p90_ms");
            assertThat(row.getString("op")).isIn("gather", "scatter");
            for (String time : new String[] {"native_median_ms", "native_p90_ms", "optimised_median_ms", "optimised_p90_ms"}) {
                assertThat(row.getDouble(time)).as(time).isPositive();
            }
            assertThat(row.getDouble("native_p90_ms")).isGreaterThanOrEqualTo(row.getDouble("native_median_ms"));
        }
    }

    /** What the root member prints: the thresholds used, and the comparison's curves (two sizes). */
    private static JsonObject rootResult(JsonObject used, JsonObject kept) {
        JsonObject before = new JsonObject()
                .put("scatter", points(new double[] {1.0, 1.5}, new double[] {2.0, 3.0}, 0))
                .put("gather", points(new double[] {2.0, 5.0}, new double[] {210.0, 9.0}, 0.3));
        JsonObject after = new JsonObject()
                .put("scatter", points(new double[] {1.1, 1.4}, new double[] {2.1, 2.9}, 0))
                .put("gather", points(new double[] {3.0, 5.2}, new double[] {6.0, 9.1}, 0));
        return new JsonObject().put("rank", 0).put("used", used)
                .put("comparison", new JsonObject().put("thresholds", kept).put("before", before).put("after", after));
    }

    private static JsonArray points(double[] medians, double[] p90s, double share) {
        long[] sizes = {4096, 131072};
        JsonArray points = new JsonArray();
        for (int i = 0; i < sizes.length; i++) {
            points.add(new JsonObject().put("bytes", sizes[i]).put("median_ms", medians[i]).put("p90_ms", p90s[i])
                    .put("escalated_share", share));
        }
        return points;
    }
}
