package dev.canopy.cli.collectives;

import dev.canopy.collectives.internal.calibration.Calibration;
import dev.canopy.collectives.internal.segmentation.EscalationDetector;
import dev.canopy.collectives.internal.segmentation.SizeTimeCurve;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * The document {@code canopy calibrate} stores in ZooKeeper and prints (and {@code canopy bench segmentation}
 * stores the same way): the grid, the detected thresholds, the kept ones (those whose split made the operation
 * faster, when an after run measured that), and the curves before and after.
 */
public final class CalibrationReport {

    private CalibrationReport() {
    }

    /** As {@link #of(String, int, Calibration.Result, Optional, EscalationDetector)} with calibrate's detector. */
    public static JsonObject of(String grid, int processes, Calibration.Result before, Optional<Calibration.Result> after) {
        return of(grid, processes, before, after, Calibration.ESCALATION);
    }

    /**
     * Without {@code after}, every detected threshold is kept. Each gather point carries its share of samples that
     * {@code escalation} counts as escalated.
     */
    public static JsonObject of(String grid, int processes, Calibration.Result before, Optional<Calibration.Result> after,
            EscalationDetector escalation) {
        JsonObject report = new JsonObject().put("grid", grid).put("processes", processes)
                .put("detected", before.thresholds().toJson())
                .put("thresholds", after.map(a -> Calibration.keepImprovements(before, a)).orElse(before.thresholds()).toJson())
                .put("before", curves(before, escalation));
        after.ifPresent(a -> report.put("after", curves(a, escalation)));
        return report;
    }

    private static JsonObject curves(Calibration.Result result, EscalationDetector escalation) {
        return new JsonObject().put("scatter", curve(result.scatter(), escalation))
                .put("gather", curve(result.gather(), escalation));
    }

    private static JsonArray curve(SizeTimeCurve curve, EscalationDetector escalation) {
        JsonArray points = new JsonArray();
        for (SizeTimeCurve.Point point : curve.points()) {
            points.add(new JsonObject().put("bytes", point.bytes()).put("median_ms", point.median())
                    .put("p90_ms", point.quantile(0.9)).put("escalated_share", escalation.escalatedShare(point)));
        }
        return points;
    }
}
