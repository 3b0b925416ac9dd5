package dev.canopy.dashboard.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Who the skew report blames, on synthetic timings: tree 0 -> 1 -> 2 and 0 -> 3, predicted 0, 10, 20, 10 ms. */
class SkewReportTest {

    private static final long MS = 1_000_000;
    private static final int[] PARENTS = {-1, 0, 1, 0};
    private static final double[] PREDICTED = {0, 10, 20, 10};

    @Test
    void namesALateProcessAndTheRanksBelowItAsUpstream() {
        JsonObject report = SkewReport.of(bcast(), nanos(0, 0, 0, 100), nanos(1, 12, 22, 112));
        assertThat(report.getJsonArray("late")).hasSize(1);
        JsonObject late = report.getJsonArray("late").getJsonObject(0);
        assertThat(late.getInteger("rank")).isEqualTo(3);
        assertThat(late.getString("cause")).isEqualTo("process");
        assertThat(late.getDouble("late_ms")).isEqualTo(100.0);
        assertThat(late.getString("site")).isEqualTo("s3");

        JsonObject chain = SkewReport.of(bcast(), nanos(0, 90, 0, 0), nanos(1, 95, 100, 11));
        assertThat(cause(chain, 1)).isEqualTo("process");
        assertThat(cause(chain, 2)).isEqualTo("upstream");
        assertThat(chain.getJsonArray("late").getJsonObject(1).getInteger("waited_for")).isEqualTo(1);
    }

    @Test
    void blamesTheNetworkWhereTheDelayAppearedAndNotBelowIt() {
        JsonObject report = SkewReport.of(bcast(), nanos(0, 0, 0, 0), nanos(1, 60, 65, 11));
        assertThat(report.getJsonArray("late")).hasSize(2);
        assertThat(cause(report, 1)).isEqualTo("network");
        assertThat(cause(report, 2)).isEqualTo("upstream");
        assertThat(report.getJsonArray("late").getJsonObject(1).getInteger("waited_for")).isEqualTo(1);
    }

    @Test
    void aRankThatCompletedAfterALateDescendantStartedWaitedForIt() {
        // Rank 2 starts 100 ms late; rank 1, its parent, completes only after that (it waited for rank 2).
        JsonObject report = SkewReport.of(bcast(), nanos(0, 0, 100, 0), nanos(1, 105, 110, 11));
        assertThat(cause(report, 2)).isEqualTo("process");
        assertThat(cause(report, 1)).isEqualTo("downstream");
        assertThat(report.getJsonArray("late").getJsonObject(0).getInteger("waited_for")).isEqualTo(2);
    }

    @Test
    void nobodyIsLateWithinTheTolerance() {
        JsonObject report = SkewReport.of(bcast(), nanos(0, 5, 10, 15), nanos(1, 25, 35, 30));
        assertThat(report.getJsonArray("late")).isEmpty();
        assertThat(report.getDouble("tolerance_ms")).isEqualTo(SkewReport.MIN_TOLERANCE_MS);
        assertThat(report.getDouble("completion_ms")).isEqualTo(35.0);
    }

    private static String cause(JsonObject report, int rank) {
        return report.getJsonArray("late").stream().map(JsonObject.class::cast).filter(l -> l.getInteger("rank") == rank)
                .findFirst().orElseThrow(() -> new AssertionError("rank " + rank + " not late in " + report)).getString("cause");
    }

    private static OperationStart bcast() {
        List<Member> members = IntStream.range(0, 4).mapToObj(i -> new Member(NodeId.of("n" + i),
                new Coordinates("w", "s" + i, "l" + i, "c" + i, "h" + i), new NodeAddress("127.0.0.1", 1000 + i, 2000 + i)))
                .toList();
        return new OperationStart(1, 1, Operation.BCAST, 0, 8, 1, members, PARENTS, PREDICTED, new JsonObject());
    }

    private static long[] nanos(long... ms) {
        long[] nanos = new long[ms.length];
        for (int i = 0; i < ms.length; i++) {
            nanos[i] = 1_000 * MS + ms[i] * MS;
        }
        return nanos;
    }
}
