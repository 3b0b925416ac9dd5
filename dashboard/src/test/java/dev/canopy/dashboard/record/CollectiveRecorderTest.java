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

/** The recorder matches ranks' reports by sequence number, whatever their order, and takes the payload from the root. */
class CollectiveRecorderTest {

    private static final long MS = 1_000_000;

    @Test
    void aBcastReportedFirstByARankThatIsNotItsRootShowsTheRootsPayload() {
        CollectiveRecorder recorder = new CollectiveRecorder();
        recorder.started(bcast(0), 1, 2 * MS); // a non-root's bcast carries no data of its own
        recorder.started(bcast(4096), 0, 0);
        recorder.completed(1, 7, 1, 20 * MS, (String) null);
        recorder.completed(1, 7, 0, 5 * MS, (String) null);

        JsonObject operation = recorder.toJson(20).getJsonArray("communicators").getJsonObject(0)
                .getJsonArray("operations").getJsonObject(0);
        assertThat(operation.getLong("bytes")).isEqualTo(4096);
        assertThat(operation.getString("status")).isEqualTo("ok");
        assertThat(operation.getDouble("completion_ms")).isEqualTo(20.0);
        assertThat(operation.getJsonObject("skew").getJsonArray("ranks").getJsonObject(1).getDouble("arrival_ms"))
                .isEqualTo(2.0);
    }

    private static OperationStart bcast(long bytes) {
        List<Member> members = IntStream.range(0, 2).mapToObj(i -> new Member(NodeId.of("n" + i),
                new Coordinates("w", "s" + i, "l" + i, "c" + i, "h" + i), new NodeAddress("127.0.0.1", 1000 + i, 2000 + i)))
                .toList();
        return new OperationStart(1, 7, Operation.BCAST, 0, bytes, 1, members, new int[] {-1, 0}, new double[] {0, 10},
                new JsonObject());
    }
}
