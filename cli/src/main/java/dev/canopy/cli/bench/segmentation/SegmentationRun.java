package dev.canopy.cli.bench.segmentation;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * What every member of {@code canopy bench segmentation} runs, passed to it as JSON.
 *
 * @param sizes                  message sizes per process, bytes, increasing
 * @param calibrationRepetitions samples per size of the calibration (native scatter and gather)
 * @param repetitions            samples per size and method of the comparison (native against optimised)
 */
record SegmentationRun(List<Integer> sizes, int calibrationRepetitions, int repetitions) {

    SegmentationRun {
        sizes = List.copyOf(sizes);
    }

    JsonObject toJson() {
        return new JsonObject().put("sizes", new JsonArray(sizes)).put("calibration_repetitions", calibrationRepetitions)
                .put("repetitions", repetitions);
    }

    static SegmentationRun fromJson(JsonObject json) {
        return new SegmentationRun(json.getJsonArray("sizes").stream().map(size -> ((Number) size).intValue()).toList(),
                json.getInteger("calibration_repetitions"), json.getInteger("repetitions"));
    }
}
