package dev.canopy.collectives.internal.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.plan.SitePairBandwidths;
import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.testing.fuzz.DecoderFuzzContract;
import dev.canopy.core.testing.fuzz.FuzzCampaign;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Plans and the plan pointer as ZooKeeper may hold them after a foreign or broken writer: seeded
 * mutation fuzzing ({@link FuzzCampaign}, JSON-aware) finds no error but {@link MalformedZnodeException},
 * and valid ones round-trip; plus the rules that matter one by one.
 */
class PlanCodecFuzzTest extends DecoderFuzzContract {

    private static final String PATH = "/canopy/jobs/j/plans/epoch-0000000001";

    @Override
    protected Stream<FuzzCampaign<?>> campaigns() {
        return Stream.of(
                FuzzCampaign.of("PlanCodec", PlanCodecFuzzTest::randomPlan, plan -> Buffer.buffer(PlanCodec.encode(plan)),
                        bytes -> PlanCodec.decode(bytes.getBytes(), PATH)).rejectingWith(MalformedZnodeException.class).json(),
                FuzzCampaign.of("PlanStore.decodeEpoch", random -> random.nextLong(0, Long.MAX_VALUE),
                        epoch -> Buffer.buffer(PlanStore.encodeEpoch(epoch)),
                        bytes -> PlanStore.decodeEpoch(bytes.getBytes(), "/plans/current"))
                        .rejectingWith(MalformedZnodeException.class));
    }

    @Test
    void aPlanWhoseSizesDoNotAgreeIsRejectedBeforeAnyArrayIsBuilt() {
        // 65,536 squared overflows an int to 0: the old check let an empty snapshot through for 65,536 members
        assertRejected("{\"format\":1,\"epoch\":1,\"predictedCompletionMs\":1,\"reason\":\"r\",\"members\":[\"a\",\"b\"],"
                + "\"oneWayMs\":[0,1,1]}", "has 3 latencies for 2 members, not 4");
        assertRejected("{\"format\":2}", "field \"format\" is 2, not an integer in 1..1");
        assertRejected("{\"format\":1,\"epoch\":0,\"predictedCompletionMs\":1,\"reason\":\"r\",\"members\":[\"a\"],"
                + "\"oneWayMs\":[0]}", "field \"epoch\" is 0");
        assertRejected("{\"format\":1,\"epoch\":1,\"predictedCompletionMs\":1,\"reason\":\"r\",\"members\":[\"a\",\"a\"],"
                + "\"oneWayMs\":[0,1,1,0]}", "appears twice");
        assertRejected("{\"format\":1,\"epoch\":1,\"predictedCompletionMs\":1,\"reason\":\"r\",\"members\":[\"a\",\"b\"],"
                + "\"oneWayMs\":[0,-1,1,0]}", "oneWayMs[1]\" is -1");
        String twoMembers = "{\"format\":1,\"epoch\":1,\"predictedCompletionMs\":1,\"reason\":\"r\",\"members\":[\"a\",\"b\"],"
                + "\"oneWayMs\":[0,1,1,0],\"bandwidthMbps\":";
        assertRejected(twoMembers + "[{\"a\":\"x\",\"b\":\"y\",\"mbps\":0}]}", "must be above 0");
        assertRejected(twoMembers + "[{\"a\":\"x\",\"b\":\"x\",\"mbps\":5}]}", "two distinct sites");
        assertRejected(twoMembers + "[{\"a\":\"x\",\"b\":\"y\",\"mbps\":-5}]}", "is -5");
        assertRejected(twoMembers + "[{\"a\":\"x\",\"b\":\"y\",\"mbps\":5},{\"a\":\"x\",\"b\":\"z\",\"mbps\":5}]}",
                "more than its 2 members' sites can form (1)");
        assertRejected(twoMembers + "[{\"a\":\"x\",\"b\":\"y\"}]}", "\"mbps\" is missing");
        assertRejected(twoMembers + "{}}", "is not an array");
        assertThatThrownBy(() -> PlanStore.decodeEpoch("9".repeat(100_000).getBytes(StandardCharsets.US_ASCII), "/current"))
                .isInstanceOf(MalformedZnodeException.class).hasMessageContaining("(100000 characters)")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(400));
    }

    private static void assertRejected(String json, String problem) {
        assertThatThrownBy(() -> PlanCodec.decode(json.getBytes(StandardCharsets.UTF_8), PATH))
                .isInstanceOf(MalformedZnodeException.class).hasMessageContaining(PATH).hasMessageContaining(problem);
    }

    private static PublishedPlan randomPlan(SplittableRandom random) {
        int n = 1 + random.nextInt(4);
        List<String> members = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            members.add("m" + i + "-" + random.nextInt(100));
        }
        double[] values = new double[n * n];
        for (int i = 0; i < values.length; i++) {
            values[i] = random.nextInt(8) == 0 ? Double.POSITIVE_INFINITY : random.nextInt(100_000) / 100.0;
        }
        List<SitePairBandwidths.Pair> pairs = new ArrayList<>();
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                if (random.nextBoolean()) {
                    pairs.add(new SitePairBandwidths.Pair("s" + a, "s" + b, 1 + random.nextInt(100_000) / 10.0));
                }
            }
        }
        return new PublishedPlan(1 + random.nextInt(1_000_000), new LatencySnapshot(members, values),
                SitePairBandwidths.of(pairs), random.nextInt(100_000) / 100.0, "reason " + random.nextInt());
    }
}
