package dev.canopy.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.collectives.grid.SyntheticLatencies;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.TopologyPlan;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.comm.Communicator;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A member dies while the others are inside collectives (it completed collective #0 with them, then
 * its node closes while they run #1 to #4). No survivor hangs; survivors fail with a
 * {@link CollectiveFailedException} naming the dead rank (with {@link Completion#AGREED} every
 * survivor, for every operation); then the survivors shrink the communicator and use it again.
 * Real nodes, real ZooKeeper, loopback TCP.
 */
@Tag("slow")
class MemberFailureTest {

    private static final int SIZE = 7;
    private static final int VICTIM = 3;
    /** Membership reports a leave at once and a crash within the ZooKeeper session timeout (4 s). */
    private static final long FAILURE_DEADLINE_SECONDS = 20;
    private static final Buffer DATA = Buffer.buffer("payload");

    @Test
    void withAgreedCompletionEverySurvivorFailsNamingTheDeadRankThenTheyShrinkAndContinue() throws Exception {
        try (LocalGrid grid = LocalGrid.start("failure-agreed", SIZE)) {
            List<List<Future<?>>> pending = startWithoutVictim(grid, Completion.AGREED);
            LocalGrid.await(grid.nodeOfRank(VICTIM).close());
            for (List<Future<?>> operation : pending) {
                for (Future<?> survivor : operation) {
                    assertThat(outcome(survivor)).as("outcome of a survivor").isEqualTo(Outcome.FAILED_NAMING_VICTIM);
                }
            }
            shrinkAndAllreduce(grid);
        }
    }

    @Test
    void withLocalCompletionNoSurvivorHangsAndThoseThatDependedOnTheDeadRankFail() throws Exception {
        try (LocalGrid grid = LocalGrid.start("failure-local", SIZE)) {
            List<List<Future<?>>> pending = startWithoutVictim(grid, Completion.LOCAL);
            LocalGrid.await(grid.nodeOfRank(VICTIM).close());
            // allreduce depends on every member: all fail. Gather and reduce fail at least at their root (rank 0);
            // bcast members outside the dead rank's subtree complete with the data.
            for (Future<?> survivor : pending.get(0)) {
                assertThat(outcome(survivor)).isEqualTo(Outcome.FAILED_NAMING_VICTIM);
            }
            for (List<Future<?>> operation : pending.subList(1, 3)) {
                assertThat(outcome(operation.get(0))).as("outcome at the root").isEqualTo(Outcome.FAILED_NAMING_VICTIM);
            }
            for (List<Future<?>> operation : pending) {
                for (Future<?> survivor : operation) {
                    assertThat(outcome(survivor)).isIn(Outcome.FAILED_NAMING_VICTIM, Outcome.COMPLETED);
                }
            }
            shrinkAndAllreduce(grid);
        }
    }

    /** Collective #0 with everyone; then allreduce, gather, reduce and bcast (root 0) on every member but the victim. */
    private static List<List<Future<?>>> startWithoutVictim(LocalGrid grid, Completion completion) {
        List<Collectives> all = new ArrayList<>();
        for (Communicator world : grid.world()) {
            all.add(new Collectives(world, plan(world), CollectiveSettings.defaults().withCompletion(completion)));
        }
        all.stream().map(Collectives::barrier).toList().forEach(LocalGrid::await);
        List<List<Future<?>>> operations = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (Collectives member : all) {
            if (member.rank() != VICTIM) {
                operations.get(0).add(member.typed(ArrayType.INTS).allreduce(new int[] {member.rank()}, BuiltInOp.SUM));
                operations.get(1).add(member.gather(DATA, 0));
                operations.get(2).add(member.typed(ArrayType.LONGS).reduce(new long[] {1}, BuiltInOp.SUM, 0));
                operations.get(3).add(member.bcast(member.rank() == 0 ? DATA : null, 0).map(data -> {
                    assertThat(data).isEqualTo(DATA);
                    return data;
                }));
            }
        }
        return operations;
    }

    private static void shrinkAndAllreduce(LocalGrid grid) {
        List<Future<Communicator>> shrinking = new ArrayList<>();
        for (Communicator world : grid.world()) {
            if (world.rank() != VICTIM) {
                shrinking.add(world.shrink());
            }
        }
        List<Communicator> survivors = LocalGrid.awaitAll(shrinking);
        assertThat(survivors).hasSize(SIZE - 1);
        List<Future<int[]>> sums = new ArrayList<>();
        List<Future<Optional<Buffer>>> gathers = new ArrayList<>();
        for (Communicator survivor : survivors) {
            Collectives again = new Collectives(survivor, plan(survivor), CollectiveSettings.defaults());
            sums.add(again.typed(ArrayType.INTS).allreduce(new int[] {1, survivor.rank()}, BuiltInOp.SUM));
            gathers.add(again.gather(Buffer.buffer(new byte[] {(byte) survivor.rank()}), 2));
        }
        for (Future<int[]> sum : sums) {
            assertThat(LocalGrid.await(sum)).containsExactly(SIZE - 1, (SIZE - 1) * (SIZE - 2) / 2);
        }
        assertThat(LocalGrid.await(gathers.get(2))).contains(Buffer.buffer(new byte[] {0, 1, 2, 3, 4, 5}));
    }

    private enum Outcome { COMPLETED, FAILED_NAMING_VICTIM }

    private static Outcome outcome(Future<?> pending) throws InterruptedException {
        try {
            pending.toCompletionStage().toCompletableFuture().get(FAILURE_DEADLINE_SECONDS, TimeUnit.SECONDS);
            return Outcome.COMPLETED;
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("a survivor hung: no outcome within " + FAILURE_DEADLINE_SECONDS + " s", e);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(CollectiveFailedException.class);
            CollectiveFailedException failure = (CollectiveFailedException) e.getCause();
            assertThat(failure.failedRank()).as(failure.getMessage()).hasValue(VICTIM);
            assertThat(failure.getMessage()).contains("rank " + VICTIM + " failed");
            return Outcome.FAILED_NAMING_VICTIM;
        }
    }

    private static TopologyPlan plan(Communicator communicator) {
        return new TopologyPlan(communicator.members(),
                new HierarchicalPlanner(LevelAlgorithms.everywhere(TreeAlgorithm.HLOT), ConfiguredPlans.COST),
                new SyntheticLatencies(communicator.members()), 1);
    }
}
