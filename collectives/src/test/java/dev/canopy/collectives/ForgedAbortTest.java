package dev.canopy.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.grid.GridCommunicators;
import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.collectives.internal.engine.CollectiveFrame;
import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.internal.security.Rejection;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.transport.PeerUnavailableException;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.core.transport.TransportSecurity;
import dev.canopy.core.transport.VertxTransport;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Forged ABORT frames, which used to abort a whole job with the attacker's text as the reason: from a
 * process without the secret they never get past the handshake, from a process with it (an insider
 * speaking as rank 1) they are refused as coming from the wrong rank; allreduce results stay right.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForgedAbortTest {

    private static final String JOB = "forged-abort";
    private static final int SIZE = 4;

    private LocalGrid grid;
    private List<Collectives> members;
    private Vertx attackerVertx;

    @BeforeAll
    void startGrid() {
        grid = LocalGrid.start(JOB, SIZE);
        members = new GridCommunicators(grid, List.of(SIZE)).members(SIZE, TreeAlgorithm.FLAT);
        attackerVertx = CanopyVertx.create();
    }

    @AfterAll
    void stopGrid() {
        LocalGrid.await(attackerVertx.close());
        grid.close();
    }

    @Test
    void abortsFromAProcessWithoutTheSecretNeverArrive() {
        Transport outsider = attacker(TransportSecurity.of(JobSecret.generate(), JobId.of(JOB)));
        List<Future<Void>> sent = sendForgedAborts(outsider);

        assertAllreduceIsRight();
        for (Future<Void> send : sent) {
            assertThat(LocalGrid.awaitOutcome(send).cause()).isInstanceOf(PeerUnavailableException.class)
                    .hasMessageContaining("HANDSHAKE_BAD_PROOF");
        }
        LocalGrid.await(outsider.close());
    }

    @Test
    void abortsFromAnInsiderSpeakingAsAnotherRankAreRefused() {
        Transport insider = attacker(TransportSecurity.of(grid.secret(), JobId.of(JOB)));
        long before = refusedAsWrongSource();
        sendForgedAborts(insider).forEach(LocalGrid::awaitOutcome);

        assertAllreduceIsRight();
        assertThat(refusedAsWrongSource() - before).as("one refusal per rank the insider wrote to").isEqualTo(SIZE);
        LocalGrid.await(insider.close());
    }

    private Transport attacker(TransportSecurity security) {
        return LocalGrid.await(VertxTransport.start(attackerVertx, TransportOptions.defaults().withNodeLabel("attacker")
                .withReconnect(java.time.Duration.ofSeconds(2), 2, java.time.Duration.ofMillis(20)), security));
    }

    /** An ABORT of the next allreduce, as from rank 1, to every rank. */
    private List<Future<Void>> sendForgedAborts(Transport attacker) {
        List<Future<Void>> sent = new ArrayList<>();
        for (Member member : grid.world().get(0).members()) {
            Buffer abort = CollectiveFrame.abort(new CollectiveFrame.Header(CollectiveFrame.Kind.DATA, Operation.ALLREDUCE,
                    0, 0, 0), new CollectiveFrame.Abort(1, 1, "forged abort\nwith a forged log line"));
            sent.add(attacker.send(member, new Frame(FrameType.COLLECTIVE, JobId.of(JOB).frameKey(),
                    members.get(0).communicator().contextId(), 0, 1, grid.world().get(0).members().indexOf(member), 0, 0,
                    abort)));
        }
        return sent;
    }

    private void assertAllreduceIsRight() {
        List<Future<int[]>> sums = members.stream()
                .map(member -> member.typed(ArrayType.INTS).allreduce(new int[] {member.rank() + 1}, BuiltInOp.SUM))
                .toList();
        for (Future<int[]> sum : sums) {
            assertThat(LocalGrid.await(sum)).containsExactly(SIZE * (SIZE + 1) / 2);
        }
    }

    private long refusedAsWrongSource() {
        long refused = 0;
        for (int rank = 0; rank < SIZE; rank++) {
            refused += grid.nodeOfRank(rank).securityCounters().get(Rejection.FRAME_WRONG_SOURCE);
        }
        return refused;
    }
}
