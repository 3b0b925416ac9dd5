package dev.canopy.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.grid.GridCommunicators;
import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Many collectives in flight on one communicator match in start order; members that start different ones are told so. */
@Tag("slow")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InFlightAndMismatchTest {

    private static final int SIZE = 8;

    private LocalGrid grid;
    private GridCommunicators communicators;

    @BeforeAll
    void startGrid() {
        grid = LocalGrid.start("in-flight", SIZE);
        communicators = new GridCommunicators(grid, List.of(3, SIZE));
    }

    @AfterAll
    void stopGrid() {
        grid.close();
    }

    @Test
    void thirtyCollectivesStartedWithoutWaitingEachGiveTheirOwnResult() {
        List<Collectives> members = communicators.members(SIZE, TreeAlgorithm.HLOT);
        List<List<Future<?>>> started = new ArrayList<>();
        for (Collectives member : members) {
            List<Future<?>> mine = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                int root = i % SIZE;
                mine.add(i % 2 == 0
                        ? member.bcast(member.rank() == root ? Buffer.buffer("message " + i) : null, root)
                        : member.typed(ArrayType.LONGS).allreduce(new long[] {i, member.rank()}, BuiltInOp.SUM));
            }
            started.add(mine);
        }
        for (List<Future<?>> mine : started) {
            for (int i = 0; i < 30; i++) {
                Object result = LocalGrid.await(mine.get(i));
                if (i % 2 == 0) {
                    assertThat(result).isEqualTo(Buffer.buffer("message " + i));
                } else {
                    assertThat((long[]) result).containsExactly((long) i * SIZE, (long) SIZE * (SIZE - 1) / 2);
                }
            }
        }
    }

    @Test
    void membersStartingDifferentOperationsFailWithAMismatchAndNoneHangs() throws Exception {
        List<Collectives> members = communicators.members(3, TreeAlgorithm.FLAT);
        List<Future<?>> started = new ArrayList<>();
        for (Collectives member : members) {
            started.add(member.rank() == 0
                    ? member.bcast(Buffer.buffer("x"), 0)
                    : member.typed(ArrayType.INTS).allreduce(new int[] {1}, BuiltInOp.SUM));
        }
        int mismatches = 0;
        for (Future<?> future : started) {
            try {
                future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(CollectiveFailedException.class);
                assertThat(e.getCause().getMessage()).contains("same collectives in the same order");
                mismatches++;
            }
        }
        assertThat(mismatches).isGreaterThanOrEqualTo(2);
        // The communicator stays usable: the next collective, started alike everywhere, completes.
        List<Future<Void>> barriers = members.stream().map(Collectives::barrier).toList();
        barriers.forEach(LocalGrid::await);
    }
}
