package dev.canopy.cli.collectives;

import dev.canopy.cli.table.Column;
import dev.canopy.cli.table.TextTable;
import dev.canopy.collectives.internal.calibration.LogGpCalibration;
import dev.canopy.collectives.internal.calibration.LogGpStore;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.tree.LogGpParameters;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Locale;
import org.apache.curator.framework.CuratorFramework;

/**
 * The LogGP part of {@code canopy calibrate}'s report: measured on the calibration's grid
 * ({@link LogGpCalibration}), printed, and stored sealed with the grid's configuration ({@link LogGpStore})
 * for jobs with the same secret to plan with.
 */
final class LogGpReport {

    private static final String KEY = "loggp";

    private LogGpReport() {
    }

    /** Measures on {@code world} and adds {@code "loggp"} (the parameters) and {@code "loggp_measurements"}. */
    static void measureInto(JsonObject report, List<Communicator> world, int repetitions) {
        LogGpCalibration.Result result = LogGpCalibration.run(world, repetitions);
        report.put(KEY, LogGpStore.toJson(result.parameters())).put("loggp_measurements", result.measurements());
    }

    /** Stores the report's parameters, sealed, as {@code /canopy/config/<grid>/loggp}. */
    static Future<Void> save(Vertx vertx, CuratorFramework client, JobSecret secret, String gridName, JsonObject report) {
        return new LogGpStore(vertx, client, secret).save(gridName, new JsonObject().put(KEY, report.getJsonObject(KEY))
                .put("measurements", report.getJsonObject("loggp_measurements")));
    }

    /** The parameters as lines of text, and where they were stored. */
    static String format(JsonObject report, String zooKeeper) {
        JsonObject loggp = report.getJsonObject(KEY);
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "LogGP: o = %.4f ms, g = %.4f ms, G = %.3e ms/B (%s)%n", loggp.getDouble("overhead_ms"),
                loggp.getDouble("gap_ms"), loggp.getDouble("per_byte_ms"), throughput(loggp.getDouble("per_byte_ms"))));
        JsonObject latencies = loggp.getJsonObject("latency_ms");
        TextTable table = TextTable.of(Column.text("level"), Column.decimal("L", "ms", 4));
        for (Level level : Level.values()) {
            if (latencies.containsKey(level.configName())) {
                table.row(level.configName(), latencies.getDouble(level.configName()));
            }
        }
        text.append(table.render());
        text.append(zooKeeper == null ? "" : "stored in ZooKeeper " + zooKeeper + " at "
                + LogGpStore.path(report.getString("grid")) + "\n");
        return text.toString();
    }

    private static String throughput(double perByteMs) {
        double bytesPerSecond = LogGpParameters.bytesPerSecond(perByteMs);
        return Double.isInfinite(bytesPerSecond) ? "not measured: no two processes share a site"
                : String.format(Locale.ROOT, "%.0f MB/s per sender", bytesPerSecond / 1e6);
    }
}
