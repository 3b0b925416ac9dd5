package dev.canopy.cli.bench.multicast;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Merges the members' times of a {@link DistributedRuns} run into the bench's rows: a single bcast's
 * completion is the last receiver's delivery minus the root's start; a back-to-back run lasts from the root's
 * start until the last receiver had the last bcast. Counters are summed over the members (retransmissions)
 * or taken at the root (ACKs), as their change over the size's timed and back-to-back bcasts.
 */
final class MemberTimes {

    private MemberTimes() {
    }

    static JsonArray rows(List<JsonObject> members, DistributedRuns.Parameters parameters) {
        JsonObject root = members.stream().filter(member -> member.getInteger("rank") == DistributedRuns.ROOT)
                .findFirst().orElseThrow(() -> new IllegalStateException("no result from the root, rank 0"));
        JsonArray rows = new JsonArray();
        JsonArray sizes = root.getJsonArray("sizes");
        for (int s = 0; s < sizes.size(); s++) {
            JsonObject rootSize = sizes.getJsonObject(s);
            int bytes = rootSize.getInteger("bytes");
            for (String method : rootSize.getJsonObject("methods").fieldNames()) {
                rows.add(row(members, s, bytes, method, parameters.iterations()));
            }
        }
        return rows;
    }

    private static JsonObject row(List<JsonObject> members, int size, int bytes, String method, int iterations) {
        double[] millis = new double[iterations];
        long[] lastDelivery = new long[iterations];
        long[] starts = new long[iterations];
        long b2bStart = 0;
        long b2bEnd = Long.MIN_VALUE;
        int count = 0;
        long retransmissions = 0;
        long acksAtRoot = 0;
        boolean counted = false;
        Arrays.fill(lastDelivery, Long.MIN_VALUE);
        for (JsonObject member : members) {
            JsonObject entry = member.getJsonArray("sizes").getJsonObject(size).getJsonObject("methods")
                    .getJsonObject(method);
            JsonArray once = entry.getJsonArray("once");
            boolean isRoot = member.getInteger("rank") == DistributedRuns.ROOT;
            for (int i = 0; i < iterations; i++) {
                if (isRoot) {
                    starts[i] = once.getLong(i);
                } else {
                    lastDelivery[i] = Math.max(lastDelivery[i], once.getLong(i));
                }
            }
            count = entry.getInteger("count");
            if (isRoot) {
                b2bStart = entry.getLong("b2b_start");
            } else {
                b2bEnd = Math.max(b2bEnd, entry.getLong("b2b_end"));
            }
            JsonObject before = entry.getJsonObject("stats_before");
            JsonObject after = entry.getJsonObject("stats_after");
            if (before != null && after != null) {
                counted = true;
                retransmissions += after.getLong("retransmissions") - before.getLong("retransmissions");
                if (isRoot) {
                    acksAtRoot = after.getLong("feedback_received") - before.getLong("feedback_received");
                }
            }
        }
        for (int i = 0; i < iterations; i++) {
            millis[i] = (lastDelivery[i] - starts[i]) / 1e6;
        }
        // The seed's skew test runs only with every member in one JVM (BroadcastTimer#skewedLoop).
        return ResultRow.withSkewedLoop(ResultRow.of(method, bytes, millis, count, count / ((b2bEnd - b2bStart) / 1e9),
                counted ? Optional.of(new BenchMethod.Counters(retransmissions, acksAtRoot)) : Optional.empty()),
                Optional.empty());
    }
}
