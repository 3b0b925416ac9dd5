package dev.canopy.collectives.leader;

import dev.canopy.core.membership.MalformedZnodeException;
import dev.canopy.core.membership.ZnodeJson;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON form of a {@link PublishedPlan} in its znode:
 *
 * <pre>{"format":1,"epoch":42,"predictedCompletionMs":20.04,"reason":"...",
 *  "members":["a","b","c"],"oneWayMs":[0,10,15, 10,0,10, 15,10,0]}</pre>
 *
 * {@code oneWayMs} is the snapshot row-major; an unmeasured pair is {@code null} (JSON has no infinity).
 */
final class PlanCodec {

    static final int FORMAT = 1;
    /** More members than a plan is computed for; the snapshot holds the square of this. */
    static final int MAX_MEMBERS = 4_096;
    static final int MAX_REASON_CHARS = 4_096;

    private PlanCodec() {
    }

    static byte[] encode(PublishedPlan plan) {
        JsonArray values = new JsonArray();
        for (double value : plan.latencies().values()) {
            values.add(Double.isInfinite(value) ? null : value);
        }
        return new JsonObject()
                .put("format", FORMAT)
                .put("epoch", plan.epoch())
                .put("predictedCompletionMs", plan.predictedCompletionMs())
                .put("reason", plan.reason())
                .put("members", new JsonArray(new ArrayList<>(plan.latencies().members())))
                .put("oneWayMs", values)
                .toBuffer().getBytes();
    }

    /**
     * Reads a plan, every field checked before use: {@code format} 1, {@code epoch} >= 1, at most
     * {@value #MAX_MEMBERS} distinct member names, exactly one latency (a finite number >= 0, or
     * null) per ordered pair, a finite predicted completion >= 0 and a reason of at most
     * {@value #MAX_REASON_CHARS} characters.
     *
     * @param path the znode the bytes came from, named in the error
     * @throws MalformedZnodeException naming the znode and the field when the bytes are not a plan of this format
     */
    static PublishedPlan decode(byte[] bytes, String path) {
        try {
            return read(bytes, path);
        } catch (MalformedZnodeException e) {
            throw new MalformedZnodeException(e.where(), "does not hold a plan of format " + FORMAT + ": " + e.problem(),
                    "it was written by another Canopy version or by hand: delete the job's plans and restart the plan"
                            + " leaders");
        }
    }

    private static PublishedPlan read(byte[] bytes, String path) {
        ZnodeJson json = ZnodeJson.parse(bytes, path);
        json.integer("format", FORMAT, FORMAT);
        JsonArray names = json.array("members");
        if (names.size() > MAX_MEMBERS) {
            throw new MalformedZnodeException(path, "lists " + names.size() + " members, more than " + MAX_MEMBERS);
        }
        List<String> members = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            members.add(json.text("members[" + i + "]", names.getValue(i), ZnodeJson.MAX_NAME_CHARS));
        }
        JsonArray values = json.array("oneWayMs");
        long pairs = (long) members.size() * members.size();
        if (values.size() != pairs) {
            throw new MalformedZnodeException(path, "has " + values.size() + " latencies for " + members.size()
                    + " members, not " + pairs);
        }
        double[] oneWayMs = new double[values.size()];
        for (int i = 0; i < oneWayMs.length; i++) {
            Object value = values.getValue(i);
            oneWayMs[i] = value == null ? Double.POSITIVE_INFINITY : json.nonNegative("oneWayMs[" + i + "]", value);
        }
        long epoch = json.integer("epoch", 1, Long.MAX_VALUE);
        double predicted = json.nonNegative("predictedCompletionMs");
        String reason = json.text("reason", MAX_REASON_CHARS);
        try {
            return new PublishedPlan(epoch, new LatencySnapshot(members, oneWayMs), predicted, reason);
        } catch (IllegalArgumentException e) {
            throw new MalformedZnodeException(path, "is not a plan: " + MalformedZnodeException.quote(e.getMessage()));
        }
    }
}
