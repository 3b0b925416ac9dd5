package dev.canopy.collectives.leader;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
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
     * @param path the znode the bytes came from, named in the error
     * @throws IllegalStateException naming the znode when the bytes are not a plan of this format
     */
    static PublishedPlan decode(byte[] bytes, String path) {
        try {
            JsonObject json = new JsonObject(Buffer.buffer(bytes));
            Integer format = json.getInteger("format");
            if (format == null || format != FORMAT) {
                throw new IllegalArgumentException("format " + format + ", expected " + FORMAT);
            }
            List<String> members = new ArrayList<>();
            for (Object member : json.getJsonArray("members")) {
                members.add((String) member);
            }
            JsonArray values = json.getJsonArray("oneWayMs");
            double[] oneWayMs = new double[values.size()];
            for (int i = 0; i < oneWayMs.length; i++) {
                Number value = (Number) values.getValue(i);
                oneWayMs[i] = value == null ? Double.POSITIVE_INFINITY : value.doubleValue();
            }
            return new PublishedPlan(json.getLong("epoch"), new LatencySnapshot(members, oneWayMs),
                    json.getDouble("predictedCompletionMs"), json.getString("reason"));
        } catch (DecodeException | IllegalArgumentException | ClassCastException | NullPointerException e) {
            throw new IllegalStateException("plan znode " + path + " does not hold a plan of format " + FORMAT + " ("
                    + e.getMessage() + "); it was written by another Canopy version or by hand: delete the job's plans"
                    + " and restart the plan leaders", e);
        }
    }
}
