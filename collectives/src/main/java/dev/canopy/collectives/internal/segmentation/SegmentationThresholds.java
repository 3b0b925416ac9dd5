package dev.canopy.collectives.internal.segmentation;

import io.vertx.core.json.JsonObject;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What {@code canopy calibrate} measured on a deployment: the scatter leap S and the gather
 * escalation range [M1, M2] with the number of senders it was observed with, either of which may be absent (no
 * leap, no escalation seen).
 * Stored as JSON beside the job's configuration.
 */
public record SegmentationThresholds(OptionalLong scatterLeapBytes, Optional<EscalationRange> gatherEscalation) {

    /** The JSON field of {@link EscalationRange#senders()}: how many processes sent at once when M1, M2 were found. */
    static final String SENDERS = "M_senders";

    /** No thresholds: every scatter and gather runs unsplit. */
    public static final SegmentationThresholds NONE =
            new SegmentationThresholds(OptionalLong.empty(), Optional.empty());

    public JsonObject toJson() {
        JsonObject json = new JsonObject();
        scatterLeapBytes.ifPresent(s -> json.put("S", s));
        gatherEscalation.ifPresent(range -> {
            json.put("M1", range.firstBytes()).put("M2", range.lastBytes());
            range.senders().ifPresent(senders -> json.put(SENDERS, senders));
        });
        return json;
    }

    /** Reads the JSON written by {@link #toJson()}; a malformed document names the field to fix. */
    public static SegmentationThresholds fromJson(JsonObject json) {
        OptionalLong leap = json.containsKey("S") ? OptionalLong.of(positive(json, "S")) : OptionalLong.empty();
        if (json.containsKey("M1") != json.containsKey("M2")) {
            throw new IllegalArgumentException("segmentation thresholds need both M1 and M2 or neither: " + json);
        }
        if (json.containsKey(SENDERS) && !json.containsKey("M1")) {
            throw new IllegalArgumentException("segmentation threshold " + SENDERS + " belongs to M1 and M2: " + json);
        }
        Optional<EscalationRange> range = json.containsKey("M1")
                ? Optional.of(new EscalationRange(positive(json, "M1"), positive(json, "M2"), senders(json)))
                : Optional.empty();
        return new SegmentationThresholds(leap, range);
    }

    private static OptionalInt senders(JsonObject json) {
        if (!json.containsKey(SENDERS)) {
            return OptionalInt.empty();
        }
        Object value = json.getValue(SENDERS);
        if (!(value instanceof Integer count) || count < 1) {
            throw new IllegalArgumentException("segmentation threshold " + SENDERS + " must be a positive process count,"
                    + " got " + value);
        }
        return OptionalInt.of(count);
    }

    private static long positive(JsonObject json, String field) {
        Object value = json.getValue(field);
        if (!(value instanceof Number number) || number.longValue() <= 0) {
            throw new IllegalArgumentException("segmentation threshold " + field + " must be a positive byte count, got "
                    + value);
        }
        return number.longValue();
    }
}
