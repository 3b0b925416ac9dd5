package dev.canopy.dashboard.failure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.dashboard.model.DashboardState;
import dev.canopy.dashboard.model.GridEvent;
import dev.canopy.dashboard.model.GridMember;
import dev.canopy.dashboard.model.JobSnapshot;
import dev.canopy.dashboard.model.MemberState;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A launcher's exit statuses on the dashboard: non-zero is {@code failed} with the status (and signal) as evidence. */
class ProcessExitsTest {

    private static final List<Member> MEMBERS = IntStream.range(0, 3).mapToObj(i -> new Member(NodeId.of("p" + i),
            new Coordinates("w", "s" + i, "l" + i, "c" + i, "h" + i), new NodeAddress("127.0.0.1", 1000 + i, 2000 + i)))
            .toList();

    @Test
    void aSignalledExitIsAFailureNamingTheStatusAndTheSignal() {
        DashboardState state = joined();

        ProcessExits.exited(state, "p1", 137, "killed by signal 9 (SIGKILL)");
        // ZooKeeper expires the session later: the member stays failed.
        state.snapshot(read(MemberState.JOINED, MemberState.LEFT, MemberState.JOINED));

        assertThat(state.snapshot().members().get(1).state()).isEqualTo(MemberState.FAILED);
        JsonObject event = failures(state).get(0).toJson();
        assertThat(event.getString("member")).isEqualTo("p1");
        assertThat(event.getInteger("rank")).isEqualTo(1);
        assertThat(event.getInteger("exit_status")).isEqualTo(137);
        assertThat(event.getInteger("signal")).isEqualTo(9);
        assertThat(event.getString("detail")).isEqualTo("p1 (rank 1, s1) failed: its process ended with exit status 137:"
                + " killed by signal 9 (SIGKILL) (seen by the launcher)");
    }

    @Test
    void aNonZeroStatusIsAFailureWithoutASignalAndStatusZeroAfterLeavingIsNone() {
        DashboardState state = joined();
        state.snapshot(read(MemberState.LEFT, MemberState.JOINED, MemberState.JOINED));

        ProcessExits.exited(state, "p0", 0, "done");
        ProcessExits.exited(state, "p2", 1, "the program failed");
        state.snapshot(read(MemberState.LEFT, MemberState.JOINED, MemberState.LEFT));

        assertThat(state.snapshot().members().stream().map(GridMember::state))
                .containsExactly(MemberState.LEFT, MemberState.JOINED, MemberState.FAILED);
        List<GridEvent> failures = failures(state);
        assertThat(failures).hasSize(1);
        assertThat(failures.get(0).toJson().getInteger("exit_status")).isEqualTo(1);
        assertThat(failures.get(0).toJson().containsKey("signal")).isFalse();
    }

    @Test
    void statusZeroWhileTheMemberIsStillJoinedIsAFailureUnlessTheReadFailed() {
        DashboardState state = joined();

        ProcessExits.exited(state, "p1", 0, "done");
        state.sourceStatus("ZooKeeper read of job job failed: connection loss");
        ProcessExits.exited(state, "p2", 0, "done");

        List<GridEvent> failures = failures(state);
        assertThat(failures).hasSize(1);
        JsonObject event = failures.get(0).toJson();
        assertThat(event.getString("member")).isEqualTo("p1");
        assertThat(event.getInteger("exit_status")).isZero();
        assertThat(event.getString("detail")).contains("exit status 0 without leaving the job");
        assertThat(state.snapshot().members().get(1).state()).isEqualTo(MemberState.FAILED);
        assertThat(state.snapshot().members().get(2).state()).isEqualTo(MemberState.JOINED);
    }

    @Test
    void onlyStatusesAboveTheSignalBaseNameASignal() {
        assertThat(ProcessExits.signal(128)).isEmpty();
        assertThat(ProcessExits.signal(143)).isEqualTo(OptionalInt.of(15));
        assertThat(ProcessExits.signal(192)).isEqualTo(OptionalInt.of(64));
        assertThat(ProcessExits.signal(255)).isEmpty();
    }

    private static DashboardState joined() {
        DashboardState state = new DashboardState("job");
        state.snapshot(read(MemberState.JOINED, MemberState.JOINED, MemberState.JOINED));
        state.sourceStatus("ok");
        return state;
    }

    private static List<GridEvent> failures(DashboardState state) {
        return state.events().since(0).stream().filter(e -> e.kind() == GridEvent.Kind.FAILURE).toList();
    }

    private static JobSnapshot read(MemberState... states) {
        return new JobSnapshot("job", true, IntStream.range(0, MEMBERS.size())
                .mapToObj(rank -> new GridMember(rank, MEMBERS.get(rank), states[rank])).toList());
    }
}
