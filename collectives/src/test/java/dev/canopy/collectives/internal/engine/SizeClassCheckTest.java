package dev.canopy.collectives.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.CollectiveFailedException;
import dev.canopy.collectives.CollectiveMismatchException;
import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.core.comm.Communicator;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The size check on real nodes (6 ranks): every sent frame is recorded, so a test sees exactly which checks went.
 * Classes whose trees from the root are all the same need none; classes whose trees differ send one per distinct
 * parent, and a member on another class's plan fails the check.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SizeClassCheckTest {

    private static final int SIZE = 6;
    private static final RootedTree FLAT = tree(rank -> rank == 0 ? IntStream.range(1, SIZE).boxed().toList() : List.of());
    private static final RootedTree CHAIN = tree(rank -> rank + 1 < SIZE ? List.of(rank + 1) : List.of());
    private static final long PLAN = 11;

    private final AtomicInteger sequence = new AtomicInteger();
    private LocalGrid grid;

    @BeforeAll
    void startGrid() {
        grid = LocalGrid.start("size-class-check", SIZE);
    }

    @AfterAll
    void stopGrid() {
        grid.close();
    }

    @Test
    void classesWithTheSameTreeFromTheRootSendNoCheck() {
        Queue<int[]> sent = new ConcurrentLinkedQueue<>();
        List<RootedTree> sameTrees = List.of(FLAT, tree(rank -> rank == 0 ? IntStream.range(1, SIZE).boxed().toList()
                : List.of()));
        assertThat(SizeClassCheck.needed(sameTrees)).isFalse();
        check(sameTrees, rank -> PLAN, sent).forEach(LocalGrid::await);
        assertThat(sent).as("frames sent").isEmpty();
    }

    @Test
    void classesWhoseTreesDifferSendOneCheckPerDistinctParent() {
        Queue<int[]> sent = new ConcurrentLinkedQueue<>();
        List<RootedTree> trees = List.of(FLAT, CHAIN, FLAT);
        assertThat(SizeClassCheck.needed(trees)).isTrue();
        check(trees, rank -> PLAN, sent).forEach(LocalGrid::await);
        // Rank 1's parent is 0 in both trees; ranks 2..5 have 0 in the flat tree and rank - 1 in the chain.
        assertThat(sent).allSatisfy(frame -> assertThat(frame[2]).isEqualTo(SizeClassCheck.STEP));
        assertThat(sent).hasSize(1 + 2 * (SIZE - 2));
    }

    @Test
    void aMemberOnAnotherClassesPlanFailsTheChecksOfItsNeighbours() {
        List<Future<Void>> checks = check(List.of(FLAT, CHAIN), rank -> rank == 3 ? PLAN ^ (1L << 56) : PLAN,
                new ConcurrentLinkedQueue<>());
        List<Throwable> causes = checks.stream().map(LocalGrid::awaitOutcome).map(Future::cause).toList();
        // Rank 3's parents (0 in the flat tree, 2 in the chain) and rank 3 itself (its child 4 is on the other plan).
        for (int rank : new int[] {0, 2, 3}) {
            assertThat(causes.get(rank)).as("rank %d's check", rank).isInstanceOf(CollectiveFailedException.class);
        }
        assertThat(causes).anySatisfy(cause -> assertThat(cause.getCause()).isInstanceOf(CollectiveMismatchException.class)
                .hasMessageContaining("rank 3 runs allreduce on plan " + (PLAN ^ (1L << 56))));
    }

    /** Every member runs the check of one allreduce on {@code trees} with its plan id. */
    private List<Future<Void>> check(List<RootedTree> trees, IntToLongFunction planOf, Queue<int[]> sent) {
        int collective = sequence.incrementAndGet();
        List<Future<Void>> checks = new ArrayList<>();
        for (Communicator member : grid.world()) {
            Promise<Void> done = Promise.promise();
            member.context().runOnContext(ignored -> {
                Exchange exchange = new Exchange(new RecordingChannel(member.collectiveChannel(), sent),
                        Operation.ALLREDUCE, collective, planOf.applyAsLong(member.rank()), "test#" + member.rank());
                exchange.run(() -> SizeClassCheck.run(exchange, trees, 8)).onComplete(done);
            });
            checks.add(done.future());
        }
        return checks;
    }

    private static RootedTree tree(IntFunction<List<Integer>> children) {
        return RootedTree.fromChildren(0, IntStream.range(0, SIZE).mapToObj(children).toList());
    }
}
