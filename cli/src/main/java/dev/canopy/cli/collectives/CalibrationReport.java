package dev.canopy.cli.collectives;

import dev.canopy.collectives.calibration.Calibration;
import dev.canopy.collectives.segmentation.EscalationDetector;
import dev.canopy.collectives.segmentation.SizeTimeCurve;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * The document {@code canopy calibrate} stores in ZooKeeper and prints (and {@code canopy bench segmentation}
 * stores the same way): the grid, the detected thresholds, the kept ones (those whose split made the operation
 * faster, when an after run measured that), and the curves before and after.
 */
public final class CalibrationReport {

    private static final EscalationDetector SHARE = new EscalationDetector(2.0, 1.0, 0.1);

    private CalibrationReport() {
    }

    /** Without {@code after}, every detected threshold is kept. */
    public static JsonObject of(String grid, int processes, Calibration.Result before, Optional<Calibration.Result> after) {
        JsonObject report = new JsonObject().put("grid", grid).put("processes", processes)
                .put("detected", before.thresholds().toJson())
                .put("thresholds", after.map(a -> Calibration.keepImprovements(before, a)).orElse(before.thresholds()).toJson())
                .put("before", curves(before));
        after.ifPresent(a -> report.put("after", curves(a)));
        return report;
    }

    private static JsonObject curves(Calibration.Result result) {
        return new JsonObject().put("scatter", curve(result.scatter())).put("gather", curve(result.gather()));
    }

    private static JsonArray curve(SizeTimeCurve curve) {
        JsonArray points = new JsonArray();
        for (SizeTimeCurve.Point point : curve.points()) {
            points.add(new JsonObject().put("bytes", point.bytes()).put("median_ms", point.median())
                    .put("p90_ms", point.quantile(0.9)).put("escalated_share", SHARE.escalatedShare(point)));
        }
        return points;
    }
}
