package dev.canopy.collectives.internal.leader;

import dev.canopy.collectives.plan.SitePairBandwidths;
import dev.canopy.collectives.plan.SizeClasses;
import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeJson;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON form of a {@link PublishedPlan} in its znode:
 *
 * <pre>{"format":1,"epoch":42,"predictedCompletionMs":20.04,"reason":"...",
 *  "members":["a","b","c"],"oneWayMs":[0,10,15, 10,0,10, 15,10,0],
 *  "bandwidthMbps":[{"a":"site-a","b":"site-c","mbps":2.1}]}</pre>
 *
 * {@code oneWayMs} is the snapshot row-major; an unmeasured pair is {@code null} (JSON has no infinity).
 * {@code bandwidthMbps}, the site-pair bandwidth forecasts sized trees are planned with, is absent from a
 * latency-only leader's plans (and from those written before live plans weighed bandwidth): no forecasts.
 * {@code sizeClasses}, the lower bounds of the size classes whose trees collectives pick by size (e.g.
 * {@code [0,65536,1048576,16777216]}), is absent when there is one class (0).
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
        JsonObject json = new JsonObject()
                .put("format", FORMAT)
                .put("epoch", plan.epoch())
                .put("predictedCompletionMs", plan.predictedCompletionMs())
                .put("reason", plan.reason())
                .put("members", new JsonArray(new ArrayList<>(plan.latencies().members())))
                .put("oneWayMs", values);
        if (!plan.bandwidths().isEmpty()) {
            JsonArray pairs = new JsonArray();
            for (SitePairBandwidths.Pair pair : plan.bandwidths().pairs()) {
                pairs.add(new JsonObject().put("a", pair.a()).put("b", pair.b()).put("mbps", pair.mbps()));
            }
            json.put("bandwidthMbps", pairs);
        }
        if (plan.sizeClasses().count() > 1) {
            json.put("sizeClasses", new JsonArray(new ArrayList<>(plan.sizeClasses().lowerBounds())));
        }
        return json.toBuffer().getBytes();
    }

    /**
     * Reads a plan, every field checked before use: {@code format} 1, {@code epoch} >= 1, at most
     * {@value #MAX_MEMBERS} distinct member names, exactly one latency (a finite number >= 0, or
     * null) per ordered pair, a finite predicted completion >= 0, a reason of at most
     * {@value #MAX_REASON_CHARS} characters and, if present, at most one bandwidth per pair of distinct site names,
     * no more pairs than the members can form, each finite and above 0, and at most {@value SizeClasses#MAX_CLASSES}
     * size classes, byte counts increasing strictly from 0.
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
        SitePairBandwidths bandwidths = json.has("bandwidthMbps")
                ? readBandwidths(json, members.size(), path) : SitePairBandwidths.NONE;
        SizeClasses sizeClasses = json.has("sizeClasses") ? readSizeClasses(json, path) : SizeClasses.LATENCY_ONLY;
        try {
            return new PublishedPlan(epoch, new LatencySnapshot(members, oneWayMs), bandwidths, sizeClasses, predicted,
                    reason);
        } catch (IllegalArgumentException e) {
            throw new MalformedZnodeException(path, "is not a plan: " + MalformedZnodeException.quote(e.getMessage()));
        }
    }

    private static SizeClasses readSizeClasses(ZnodeJson json, String path) {
        JsonArray bounds = json.array("sizeClasses");
        if (bounds.size() > SizeClasses.MAX_CLASSES) {
            throw new MalformedZnodeException(path, "has " + bounds.size() + " size classes, more than "
                    + SizeClasses.MAX_CLASSES);
        }
        List<Long> lowerBounds = new ArrayList<>(bounds.size());
        for (int i = 0; i < bounds.size(); i++) {
            Object bound = bounds.getValue(i);
            if (!(bound instanceof Integer || bound instanceof Long) || ((Number) bound).longValue() < 0) {
                throw new MalformedZnodeException(path, "sizeClasses[" + i + "] is " + MalformedZnodeException.quote(bound)
                        + ", not a byte count (an integer >= 0)");
            }
            lowerBounds.add(((Number) bound).longValue());
        }
        try {
            return new SizeClasses(lowerBounds);
        } catch (IllegalArgumentException e) {
            throw new MalformedZnodeException(path, "sizeClasses: " + MalformedZnodeException.quote(e.getMessage()));
        }
    }

    private static SitePairBandwidths readBandwidths(ZnodeJson json, int memberCount, String path) {
        JsonArray entries = json.array("bandwidthMbps");
        long maxPairs = (long) memberCount * (memberCount - 1) / 2;
        if (entries.size() > maxPairs) {
            throw new MalformedZnodeException(path, "has " + entries.size() + " site-pair bandwidths, more than its "
                    + memberCount + " members' sites can form (" + maxPairs + ")");
        }
        List<SitePairBandwidths.Pair> pairs = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            ZnodeJson entry = ZnodeJson.of(entries.getValue(i), path + " bandwidthMbps[" + i + "]");
            String a = entry.name("a");
            String b = entry.name("b");
            double mbps = entry.nonNegative("mbps");
            try {
                pairs.add(new SitePairBandwidths.Pair(a, b, mbps));
            } catch (IllegalArgumentException e) {
                throw new MalformedZnodeException(path, "bandwidthMbps[" + i + "] is not a site-pair bandwidth: "
                        + MalformedZnodeException.quote(e.getMessage()));
            }
        }
        try {
            return SitePairBandwidths.of(pairs);
        } catch (IllegalArgumentException e) {
            throw new MalformedZnodeException(path, "bandwidthMbps: " + MalformedZnodeException.quote(e.getMessage()));
        }
    }
}
