package dev.canopy.collectives.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.grid.GridCommunicators;
import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.core.comm.Communicator;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The windowed gather on real nodes (12 ranks): the blocks arrive whole and in rank order, pieces under the window. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WindowedGatherTest {

    private static final int SIZE = 12;
    private static final int BLOCK_BYTES = 10_001;

    private final AtomicInteger sequence = new AtomicInteger();
    private LocalGrid grid;

    @BeforeAll
    void startGrid() {
        grid = LocalGrid.start("windowed-gather", SIZE);
    }

    @AfterAll
    void stopGrid() {
        grid.close();
    }

    @Test
    void theRootNeverHasMoreThanTheWindowOfPiecesAskedForAndNotAnswered() {
        RootedTree tree = GridCommunicators.planFor(grid.world().get(0), TreeAlgorithm.FLAT).tree(0);
        int children = tree.children(0).length;
        assertThat(children).isGreaterThan(3);
        Queue<int[]> sent = new ConcurrentLinkedQueue<>();
        List<Optional<List<Buffer>>> results = gather(tree, 4, 3, sent);

        assertThat(results.get(0)).contains(expectedBlocks());
        int outstanding = 0;
        int most = 0;
        int requests = 0;
        for (int[] message : sent) {
            if (message[0] == 0 && message[2] % 2 == 0) {
                outstanding++;
                requests++;
            } else if (message[1] == 0 && message[2] % 2 == 1) {
                outstanding--;
            }
            most = Math.max(most, outstanding);
        }
        assertThat(requests).as("one request per piece of every child").isEqualTo(4 * children);
        assertThat(most).as("pieces asked for and not yet answered").isEqualTo(3);
    }

    @Test
    void everyNodeOfADeepTreePullsItsSubtreeAndTheRootGetsEveryBlockInRankOrder() {
        RootedTree deep = GridCommunicators.planFor(grid.world().get(0), TreeAlgorithm.HLOT).tree(7);
        assertThat(deep.depth()).isGreaterThan(1);
        List<Optional<List<Buffer>>> results = gather(deep, 5, 2, new ConcurrentLinkedQueue<>());
        for (int rank = 0; rank < SIZE; rank++) {
            assertThat(results.get(rank)).as("rank %d", rank).isEqualTo(rank == 7 ? Optional.of(expectedBlocks())
                    : Optional.empty());
        }
    }

    @Test
    void moreThanOneWholeBlockPerPieceOrAWindowBeyondTheChildrenStillGathersEverything() {
        RootedTree flat = GridCommunicators.planFor(grid.world().get(0), TreeAlgorithm.FLAT).tree(3);
        assertThat(gather(flat, 1, 100, new ConcurrentLinkedQueue<>()).get(3)).contains(expectedBlocks());
        assertThat(gather(flat, BLOCK_BYTES + 5, 1, new ConcurrentLinkedQueue<>()).get(3)).contains(expectedBlocks());
    }

    private List<Optional<List<Buffer>>> gather(RootedTree tree, int parts, int window, Queue<int[]> sent) {
        List<Promise<Optional<List<Buffer>>>> results = new ArrayList<>();
        int collective = sequence.incrementAndGet();
        for (Communicator member : grid.world()) {
            Promise<Optional<List<Buffer>>> result = Promise.promise();
            member.context().runOnContext(ignored -> {
                Exchange exchange = new Exchange(new RecordingChannel(member.collectiveChannel(), sent), Operation.GATHER,
                        collective, 0, "test#" + member.rank());
                exchange.run(() -> new WindowedGather(exchange, tree, parts, window).run(blockOf(member.rank())))
                        .onComplete(result);
            });
            results.add(result);
        }
        return results.stream().map(result -> LocalGrid.await(result.future())).toList();
    }

    private static List<Buffer> expectedBlocks() {
        List<Buffer> blocks = new ArrayList<>();
        for (int rank = 0; rank < SIZE; rank++) {
            blocks.add(blockOf(rank));
        }
        return blocks;
    }

    private static Buffer blockOf(int rank) {
        Buffer block = Buffer.buffer(BLOCK_BYTES);
        for (int i = 0; i < BLOCK_BYTES; i++) {
            block.appendByte((byte) (rank * 31 + i));
        }
        return block;
    }
}
