package dev.canopy.cli.bench.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The merge of the members' times: completion is the last receiver's delivery minus the root's start. */
class MemberTimesTest {

    private static final DistributedRuns.Parameters PARAMETERS = new DistributedRuns.Parameters(List.of(8), 2, 0, 4, 0,
            1, 0, 64, 32, 1472);

    @Test
    void completionIsTheLastDeliveryMinusTheRootsStartAndCountersAreDifferences() {
        JsonObject root = member(0, new long[] {1_000_000, 5_000_000}, "b2b_start", 10_000_000, stats(1, 10), stats(3, 30));
        JsonObject early = member(1, new long[] {1_500_000, 5_200_000}, "b2b_end", 12_000_000, stats(0, 0), stats(2, 0));
        JsonObject late = member(2, new long[] {3_000_000, 5_100_000}, "b2b_end", 14_000_000, stats(0, 0), stats(0, 0));

        JsonArray rows = MemberTimes.rows(List.of(late, root, early), PARAMETERS);

        JsonObject row = rows.getJsonObject(0);
        assertThat(row.getString("method")).isEqualTo("multicast");
        assertThat(row.getDouble("latency_median_ms")).isEqualTo(0.2); // (5.2 - 5.0) ms and (3.0 - 1.0) ms
        assertThat(row.getDouble("latency_p90_ms")).isEqualTo(2.0);
        assertThat(row.getDouble("bcasts_per_s")).isEqualTo(1000.0); // 4 bcasts in 4 ms
        // 2 + 2 retransmissions and 20 ACKs at the root, over 2 timed + 4 back-to-back bcasts
        assertThat(row.getDouble("retransmissions_per_bcast")).isEqualTo(0.667);
        assertThat(row.getDouble("acks_at_root_per_bcast")).isEqualTo(3.333);
    }

    private static JsonObject member(int rank, long[] once, String b2bField, long b2b, JsonObject before, JsonObject after) {
        JsonObject entry = new JsonObject().put("once", new JsonArray().add(once[0]).add(once[1])).put("count", 4)
                .put(b2bField, b2b).put("stats_before", before).put("stats_after", after);
        return new JsonObject().put("rank", rank).put("sizes", new JsonArray().add(new JsonObject().put("bytes", 8)
                .put("methods", new JsonObject().put("multicast", entry))));
    }

    private static JsonObject stats(long retransmissions, long feedback) {
        return new JsonObject().put("retransmissions", retransmissions).put("feedback_received", feedback);
    }
}
