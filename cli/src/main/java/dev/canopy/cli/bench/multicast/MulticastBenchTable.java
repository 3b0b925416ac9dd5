package dev.canopy.cli.bench.multicast;

import dev.canopy.cli.table.Column;
import dev.canopy.cli.table.TextTable;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The bench's report as a text table (the JSON's fields, one line per method and size). */
final class MulticastBenchTable {

    private MulticastBenchTable() {
    }

    static String format(JsonObject report) {
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "bcast, %d members, root 0, fabric %s, loss %s, skew %d us, %s%n",
                report.getInteger("members"), report.getString("fabric"), report.getValue("loss"),
                report.getLong("skew_us"), report.getString("date")));
        if (report.getString("fallback") != null) {
            text.append("fallback: ").append(report.getString("fallback")).append(System.lineSeparator());
        }
        TextTable table = TextTable.of(Column.text("method"), Column.integer("bytes", null),
                Column.decimal("median", "ms", 3), Column.decimal("p90", "ms", 3), Column.decimal("bcasts/s", null, 1),
                Column.decimal("MB/s/recv", null, 2), Column.decimal("rexmit/b", null, 3),
                Column.decimal("acks/b", null, 3));
        for (Object entry : report.getJsonArray("results")) {
            JsonObject row = (JsonObject) entry;
            table.row(row.getString("method"), row.getInteger("bytes"), row.getDouble("latency_median_ms"),
                    row.getDouble("latency_p90_ms"), row.getDouble("bcasts_per_s"),
                    row.getDouble("mb_per_s_per_receiver"), row.getDouble("retransmissions_per_bcast"),
                    row.getDouble("acks_at_root_per_bcast"));
        }
        text.append(table.render());
        text.append(skewedLoops(report));
        JsonObject model = report.getJsonObject("model");
        if (model != null) {
            text.append(String.format(Locale.ROOT, "model, %d members: %s (published InfiniBand parameters)%n",
                    model.getInteger("members"), describe(model.getJsonObject("published_infiniband"))));
            if (model.getJsonObject("measured_here") != null) {
                JsonObject measured = model.getJsonObject("measured_here");
                text.append(String.format(Locale.ROOT, "model, %d members: %s (T_pp %.1f us and T_mc %.1f us measured"
                        + " here)%n", model.getInteger("members"), describe(measured), measured.getDouble("t_pp_us"),
                        measured.getDouble("t_mc_us")));
            }
        }
        return text.toString();
    }

    /** The seed's skew test, one line per size where it ran: each method's median time inside a bcast call. */
    private static String skewedLoops(JsonObject report) {
        StringBuilder text = new StringBuilder();
        Map<Integer, StringBuilder> bySize = new LinkedHashMap<>();
        for (Object entry : report.getJsonArray("results")) {
            JsonObject row = (JsonObject) entry;
            if (row.getValue("skewed_call_median_ms") != null) {
                bySize.computeIfAbsent(row.getInteger("bytes"), bytes -> new StringBuilder()).append(String.format(
                        Locale.ROOT, ", %s %.3f ms (mean %.3f)", row.getString("method"),
                        row.getDouble("skewed_call_median_ms"), row.getDouble("skewed_call_mean_ms")));
            }
        }
        bySize.forEach((bytes, methods) -> text.append(String.format(Locale.ROOT, "skew test, %d B (every member"
                + " waits 0-%d us before each of %d bcasts; median time inside a bcast call)%s%n", bytes,
                report.getLong("skew_us"), MethodRuns.SKEWED_LOOP_BCASTS, methods)));
        return text.toString();
    }

    private static String describe(JsonObject prediction) {
        return String.format(Locale.ROOT, "%d co-roots (sub-groups of %d), multicast %.1f us, binomial %.1f us, %.2fx",
                prediction.getInteger("co_roots"), prediction.getInteger("sub_group_size"),
                prediction.getDouble("multicast_us"), prediction.getDouble("binomial_us"),
                prediction.getDouble("latency_ratio_vs_binomial"));
    }
}
