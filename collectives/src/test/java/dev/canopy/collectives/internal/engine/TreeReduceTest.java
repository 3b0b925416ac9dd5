package dev.canopy.collectives.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.grid.GridCommunicators;
import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.reduce.ReduceOp;
import dev.canopy.core.comm.Communicator;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Pipelined reduce on real nodes (24 ranks, HLOT tree rooted mid-way, so subtrees are not rank intervals). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TreeReduceTest {

    private static final int SIZE = 24;
    private static final int ROOT = 13;
    private static final int ELEMENTS = 32_768;
    private static final int SEGMENT_BYTES = 32_768;
    /** The first non-zero contribution in rank order: associative, element-wise, not commutative. */
    private static final ReduceOp FIRST_NON_ZERO = ReduceOp.ofLongs("first-non-zero", (left, right) -> left != 0 ? left : right);

    private final AtomicInteger sequence = new AtomicInteger();
    private LocalGrid grid;
    private RootedTree tree;

    @BeforeAll
    void startGrid() {
        grid = LocalGrid.start("tree-reduce", SIZE);
        tree = GridCommunicators.planFor(grid.world().get(0), TreeAlgorithm.HLOT).tree(ROOT);
    }

    @AfterAll
    void stopGrid() {
        grid.close();
    }

    @Test
    void longVectorsGoUpInSegmentsAndReduceInRankOrder() {
        assertThat(tree.depth()).isGreaterThan(1);
        Queue<int[]> sent = new ConcurrentLinkedQueue<>();
        List<Optional<Buffer>> results = reduce(sent, rank -> vectorOf(rank, ELEMENTS));

        Buffer expected = firstNonZeroOfAll(ELEMENTS);
        for (int rank = 0; rank < SIZE; rank++) {
            assertThat(results.get(rank)).as("result at rank %d", rank)
                    .isEqualTo(rank == ROOT ? Optional.of(expected) : Optional.empty());
        }
        int segments = ELEMENTS * Long.BYTES / SEGMENT_BYTES;
        for (int rank = 0; rank < SIZE; rank++) {
            int sender = rank;
            assertThat(sent.stream().filter(pair -> pair[0] == sender && pair[1] == tree.parent(sender)).count())
                    .as("segments rank %d sent its parent", rank).isEqualTo(rank == ROOT ? 0 : segments);
        }
    }

    /** Found in review: a leaf's segments complete inline, and one stack frame set per segment overflowed. */
    @Test
    void thousandsOfSegmentsDoNotGrowTheStack() {
        int elements = 4_096;
        List<Optional<Buffer>> results = start(new ConcurrentLinkedQueue<>(), rank -> vectorOf(rank, elements), Long.BYTES)
                .stream().map(LocalGrid::await).toList();
        assertThat(results.get(ROOT)).contains(firstNonZeroOfAll(elements));
    }

    /** Leaves may have finished (MPI's local completion); the root and every rank above rank 5 fail and say why. */
    @Test
    void aVectorOfAnotherLengthFailsTheRootNamingTheLengths() {
        List<Future<Optional<Buffer>>> running = start(new ConcurrentLinkedQueue<>(),
                rank -> vectorOf(rank, rank == 5 ? ELEMENTS / 2 : ELEMENTS));
        for (int rank = 0; rank < SIZE; rank++) {
            Future<Optional<Buffer>> member = running.get(rank);
            boolean above5 = rank == tree.parent(5) || rank == ROOT;
            if (above5) {
                assertThatThrownBy(() -> LocalGrid.await(member)).as("rank %d", rank)
                        .hasMessageContaining("rank 5 reduces a vector of 131072 bytes where rank " + tree.parent(5)
                                + " has 262144; every member must pass vectors of one length");
            } else {
                assertThat(LocalGrid.awaitOutcome(member)).as("rank %d completes or fails", rank).isNotNull();
            }
        }
    }

    @Test
    void segmentsAreWholeElementsAndWholeVectorOperatorsAreNotCut() {
        assertThat(TreeReduce.segmentBytes(100_000, 10_001, ElementType.DOUBLE, BuiltInOp.SUM)).isEqualTo(10_000);
        assertThat(TreeReduce.segmentBytes(100_000, 3, ElementType.LONG_INDEX, BuiltInOp.MINLOC)).isEqualTo(12);
        assertThat(TreeReduce.segmentBytes(100_000, 200_000, ElementType.INT, BuiltInOp.SUM)).isEqualTo(100_000);
        assertThat(TreeReduce.segmentBytes(100_000, 8_192, ElementType.LONG,
                ReduceOp.ofBuffers("matrix product", (left, right) -> left))).isEqualTo(100_000);
        assertThat(TreeReduce.segmentBytes(0, 8_192, ElementType.LONG, BuiltInOp.SUM)).isEqualTo(1);
    }

    private List<Optional<Buffer>> reduce(Queue<int[]> sent, IntFunction<Buffer> vectors) {
        return start(sent, vectors).stream().map(LocalGrid::await).toList();
    }

    private List<Future<Optional<Buffer>>> start(Queue<int[]> sent, IntFunction<Buffer> vectors) {
        return start(sent, vectors, SEGMENT_BYTES);
    }

    private List<Future<Optional<Buffer>>> start(Queue<int[]> sent, IntFunction<Buffer> vectors, int segmentBytes) {
        List<Future<Optional<Buffer>>> results = new ArrayList<>();
        int collective = sequence.incrementAndGet();
        for (Communicator member : grid.world()) {
            Promise<Optional<Buffer>> result = Promise.promise();
            member.context().runOnContext(ignored -> {
                Exchange exchange = new Exchange(new RecordingChannel(member.collectiveChannel(), sent), Operation.REDUCE,
                        collective, 0, "test#" + member.rank());
                exchange.run(() -> new TreeReduce(exchange, tree, 0)
                        .run(vectors.apply(member.rank()), ElementType.LONG, FIRST_NON_ZERO, segmentBytes))
                        .onComplete(result);
            });
            results.add(result.future());
        }
        return results;
    }

    /** The sequential reference: per element, the first non-zero value in rank order. */
    private static Buffer firstNonZeroOfAll(int elements) {
        Buffer expected = Buffer.buffer();
        for (int element = 0; element < elements; element++) {
            long value = 0;
            for (int rank = 0; rank < SIZE && value == 0; rank++) {
                value = vectorOf(rank, elements).getLong(element * Long.BYTES);
            }
            expected.appendLong(value);
        }
        return expected;
    }

    /** Rank r contributes r + 1 where (element + r) is a multiple of 7, zero elsewhere. */
    private static Buffer vectorOf(int rank, int elements) {
        Buffer vector = Buffer.buffer(elements * Long.BYTES);
        for (int element = 0; element < elements; element++) {
            vector.appendLong((element + rank) % 7 == 0 ? rank + 1 : 0);
        }
        return vector;
    }
}
