package dev.canopy.cli.bench.segmentation;

import dev.canopy.collectives.internal.segmentation.EscalationDetector;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * What every member of {@code canopy bench segmentation} runs, passed to it as JSON.
 *
 * @param sizes                  message sizes per process, bytes, increasing
 * @param calibrationRepetitions samples per size of the calibration (native scatter and gather)
 * @param repetitions            samples per size and method of the comparison (native against optimised)
 * @param escalationJumpMillis   how far above its size's uncongested time a gather sample must be to count as
 *                               escalated (a retransmission timeout, not the machine's jitter)
 * @param escalationShare        the share of a size's samples that must be escalated for the size to escalate
 */
record SegmentationRun(List<Integer> sizes, int calibrationRepetitions, int repetitions, double escalationJumpMillis,
        double escalationShare) {

    /** Escalated: at least twice the uncongested time, as {@code canopy calibrate}, and the jump above it. */
    static final double ESCALATION_FACTOR = 2.0;

    SegmentationRun {
        sizes = List.copyOf(sizes);
    }

    EscalationDetector escalation() {
        return new EscalationDetector(ESCALATION_FACTOR, escalationJumpMillis, escalationShare);
    }

    JsonObject toJson() {
        return new JsonObject().put("sizes", new JsonArray(sizes)).put("calibration_repetitions", calibrationRepetitions)
                .put("repetitions", repetitions).put("escalation_jump_ms", escalationJumpMillis)
                .put("escalation_share", escalationShare);
    }

    static SegmentationRun fromJson(JsonObject json) {
        return new SegmentationRun(json.getJsonArray("sizes").stream().map(size -> ((Number) size).intValue()).toList(),
                json.getInteger("calibration_repetitions"), json.getInteger("repetitions"),
                json.getDouble("escalation_jump_ms"), json.getDouble("escalation_share"));
    }
}
