package dev.canopy.dashboard.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * How the failure detectors' verdicts combine with the membership ZooKeeper shows: the first failure verdict marks a
 * member failed with one event and survives later reads; a goodbye heard by any node outweighs a failure verdict,
 * before or after it.
 */
class MemberVerdictsTest {

    private static final List<Member> MEMBERS = IntStream.range(0, 3).mapToObj(i -> new Member(NodeId.of("n" + i),
            new Coordinates("w", "s" + i, "l" + i, "c" + i, "h" + i), new NodeAddress("127.0.0.1", 1000 + i, 2000 + i)))
            .toList();

    @Test
    void theFirstFailureVerdictCountsAndSurvivesLaterReads() {
        DashboardState state = new DashboardState("job");
        state.snapshot(read(MemberState.JOINED, MemberState.JOINED, MemberState.JOINED));

        state.memberFailed("n1", "its connection closed without a goodbye (seen by n0)");
        state.memberFailed("n1", "no heartbeat (seen by n2)");

        assertThat(state.snapshot().members().get(1).state()).isEqualTo(MemberState.FAILED);
        List<GridEvent> failures = state.events().since(0).stream().filter(e -> e.kind() == GridEvent.Kind.FAILURE).toList();
        assertThat(failures).hasSize(1);
        JsonObject event = failures.get(0).toJson();
        assertThat(event.getString("member")).isEqualTo("n1");
        assertThat(event.getInteger("rank")).isEqualTo(1);
        assertThat(event.getString("site")).isEqualTo("s1");
        assertThat(event.getString("detail")).isEqualTo("n1 (rank 1, s1) failed: its connection closed without a goodbye (seen by n0)");
        // ZooKeeper still has its znode (or no longer): the reader's snapshot does not undo the verdict.
        state.snapshot(read(MemberState.JOINED, MemberState.JOINED, MemberState.JOINED));
        assertThat(state.snapshot().members().get(1).state()).isEqualTo(MemberState.FAILED);
        state.snapshot(read(MemberState.JOINED, MemberState.LEFT, MemberState.JOINED));
        assertThat(state.snapshot().members().get(1).state()).isEqualTo(MemberState.FAILED);
        assertThat(state.snapshot().count(MemberState.FAILED)).isEqualTo(1);
    }

    @Test
    void aGoodbyeOutweighsAFailureVerdictBeforeOrAfterIt() {
        DashboardState state = new DashboardState("job");
        state.snapshot(read(MemberState.JOINED, MemberState.JOINED, MemberState.JOINED));

        state.memberFailed("n1", "its connection closed without a goodbye (seen by n0)");
        state.memberSaidGoodbye("n1");
        assertThat(state.failed("n1")).isFalse();
        state.snapshot(read(MemberState.JOINED, MemberState.LEFT, MemberState.JOINED));
        assertThat(state.snapshot().members().get(1).state()).isEqualTo(MemberState.LEFT);

        state.memberSaidGoodbye("n2");
        state.memberFailed("n2", "its connection closed without a goodbye (seen by n0)");
        state.snapshot(read(MemberState.JOINED, MemberState.LEFT, MemberState.LEFT));
        assertThat(state.snapshot().members().get(2).state()).isEqualTo(MemberState.LEFT);
        assertThat(state.events().since(0).stream().filter(e -> e.kind() == GridEvent.Kind.FAILURE)
                .map(e -> e.toJson().getString("member"))).containsExactly("n1");
    }

    private static JobSnapshot read(MemberState... states) {
        return new JobSnapshot("job", true, IntStream.range(0, MEMBERS.size())
                .mapToObj(rank -> new GridMember(rank, MEMBERS.get(rank), states[rank])).toList());
    }
}
