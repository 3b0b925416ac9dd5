package dev.canopy.collectives.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.CollectiveFailedException;
import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.data.MalformedMessageException;
import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.reduce.PartialReduction;
import dev.canopy.core.comm.Communicator;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Forged collective frames sent into running collectives on three real nodes (a chain 0 - 1 - 2):
 * one member sends malformed bytes where a collective expects its message. The member that receives
 * them fails the collective with a {@link MalformedMessageException} naming the sender and the
 * problem, every other participant fails through the abort instead of hanging, nothing else is
 * thrown (the zero segment size of issue 10 was an ArithmeticException), and the next collective on
 * the same nodes succeeds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class ForgedCollectiveFramesTest {

    private static final RootedTree CHAIN = RootedTree.fromChildren(0, List.of(List.of(1), List.of(2), List.of()));
    private static final int TAG_MASK = 0x3FFF_FFFF;

    /**
     * @param forger    the rank that sends the forged frames instead of taking part
     * @param frames    the forged collective frames, given the collective's sequence number
     * @param collective what the other ranks run
     * @param problem   what the error must say
     */
    record Attack(String name, Operation operation, int forger, IntFunction<List<Buffer>> frames,
            BiFunction<Exchange, RootedTree, Future<?>> collective, String problem) {

        @Override
        public String toString() {
            return name;
        }
    }

    private final AtomicInteger sequence = new AtomicInteger();
    private LocalGrid grid;

    @BeforeAll
    void startGrid() {
        grid = LocalGrid.start("forged-frames", 3);
    }

    @AfterAll
    void stopGrid() {
        grid.close();
    }

    Stream<Attack> attacks() {
        BiFunction<Exchange, RootedTree, Future<?>> bcast = (exchange, tree) ->
                new TreeBroadcast(exchange, tree, 0).run(exchange.rank() == 0 ? Buffer.buffer("x") : null, 1);
        BiFunction<Exchange, RootedTree, Future<?>> scatter = (exchange, tree) -> new TreeScatter(exchange, tree, 0)
                .run(RankBlocks.ofRanks(List.of(Buffer.buffer("a"), Buffer.buffer("b"), Buffer.buffer("c"))));
        BiFunction<Exchange, RootedTree, Future<?>> gather = (exchange, tree) ->
                new TreeGather(exchange, tree, 0).run(Buffer.buffer("g"));
        BiFunction<Exchange, RootedTree, Future<?>> reduce = (exchange, tree) -> new TreeReduce(exchange, tree, 0)
                .run(Buffer.buffer().appendLong(exchange.rank()), ElementType.LONG, BuiltInOp.SUM, Long.BYTES);
        return Stream.of(
                new Attack("bcast with a zero segment size", Operation.BCAST, 0,
                        seq -> List.of(data(Operation.BCAST, seq, Buffer.buffer().appendInt(100).appendInt(0))),
                        bcast, "the segment size >= 1"),
                new Attack("bcast of a negative length", Operation.BCAST, 0,
                        seq -> List.of(data(Operation.BCAST, seq, Buffer.buffer().appendInt(-1).appendInt(4))),
                        bcast, "broadcast of -1 bytes"),
                new Attack("bcast whose first segment is longer than announced", Operation.BCAST, 0,
                        seq -> List.of(data(Operation.BCAST, seq,
                                Buffer.buffer().appendInt(4).appendInt(4).appendBytes(new byte[10]))),
                        bcast, "has 10 bytes where a 4-byte message in 4-byte segments has 4"),
                new Attack("bcast announcing 2 GiB, then a segment of the wrong length", Operation.BCAST, 0,
                        seq -> List.of(data(Operation.BCAST, seq,
                                        Buffer.buffer().appendInt(Integer.MAX_VALUE).appendInt(1).appendByte((byte) 1)),
                                data(Operation.BCAST, seq, Buffer.buffer(new byte[5]))),
                        bcast, "segment 1 of 2147483647 has 5 bytes"),
                new Attack("scatter with blocks for ranks outside the subtree", Operation.SCATTERV, 0,
                        seq -> List.of(data(Operation.SCATTERV, seq, RankBlocks.builder()
                                .put(1, Buffer.buffer("b")).put(7, Buffer.buffer("z")).build().encode())),
                        scatter, "blocks for ranks [1, 7] where the subtree of rank 1 has ranks [1, 2]"),
                new Attack("scatter claiming 2^31 - 1 blocks", Operation.SCATTERV, 0,
                        seq -> List.of(data(Operation.SCATTERV, seq, Buffer.buffer().appendInt(Integer.MAX_VALUE))),
                        scatter, "claim 2147483647 blocks"),
                new Attack("gather with a block for another subtree", Operation.GATHERV, 2,
                        seq -> List.of(data(Operation.GATHERV, seq, RankBlocks.builder()
                                .put(0, Buffer.buffer("forged")).build().encode())),
                        gather, "blocks for ranks [0] where the subtree of rank 2 has ranks [2]"),
                new Attack("reduce with another subtree's ranks", Operation.REDUCE, 2,
                        seq -> List.of(data(Operation.REDUCE, seq, PartialReduction.of(0, Buffer.buffer().appendLong(1000))
                                .encodeTo(Buffer.buffer().appendInt(Long.BYTES)))),
                        reduce, "runs [0..0] are not what a subtree of 1 ranks from 2 to 2 sends"),
                new Attack("reduce with a value of the wrong length", Operation.REDUCE, 2,
                        seq -> List.of(data(Operation.REDUCE, seq, PartialReduction.of(2, Buffer.buffer("abc"))
                                .encodeTo(Buffer.buffer().appendInt(Long.BYTES)))),
                        reduce, "has 3 bytes where this segment has 8"),
                new Attack("reduce segment without its vector length", Operation.REDUCE, 2,
                        seq -> List.of(data(Operation.REDUCE, seq, Buffer.buffer(new byte[3]))),
                        reduce, "lacks its vector length"),
                new Attack("unknown operation code", Operation.BCAST, 0,
                        seq -> List.of(data(Operation.BCAST, seq, Buffer.buffer()).setByte(CollectiveFrame.OPERATION_OFFSET,
                                (byte) 99)),
                        bcast, "unknown collective operation code 99"),
                new Attack("frame shorter than its header", Operation.BCAST, 0,
                        seq -> List.of(Buffer.buffer(new byte[3])), bcast, "shorter than its 16-byte header"),
                new Attack("abort naming a rank outside the communicator", Operation.BCAST, 0,
                        seq -> List.of(CollectiveFrame.abort(header(Operation.BCAST, seq),
                                new CollectiveFrame.Abort(50, 0, "forged"))),
                        bcast, "outside this 3-member communicator"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("attacks")
    void aForgedFrameFailsTheCollectiveWithATypedErrorAndTheNodesCarryOn(Attack attack) {
        int collective = sequence.incrementAndGet();
        List<Future<?>> participants = new ArrayList<>();
        for (Communicator member : grid.world()) {
            Promise<Object> outcome = Promise.promise();
            member.context().runOnContext(ignored -> {
                if (member.rank() == attack.forger()) {
                    int to = attack.forger() == 0 ? 1 : CHAIN.parent(attack.forger());
                    attack.frames().apply(collective).forEach(frame ->
                            member.collectiveChannel().send(to, collective & TAG_MASK, frame));
                    outcome.complete();
                    return;
                }
                Exchange exchange = exchange(member, attack.operation(), collective);
                exchange.run(() -> attack.collective().apply(exchange, CHAIN).map(result -> (Object) result))
                        .onComplete(outcome);
            });
            participants.add(member.rank() == attack.forger() ? null : outcome.future());
        }
        int victim = attack.forger() == 0 ? 1 : CHAIN.parent(attack.forger());
        for (int rank = 0; rank < participants.size(); rank++) {
            if (participants.get(rank) == null) {
                continue;
            }
            Future<?> outcome = LocalGrid.awaitOutcome(participants.get(rank));
            assertThat(outcome.failed()).as("rank %d fails the collective", rank).isTrue();
            assertThat(outcome.cause()).as("rank %d", rank).isInstanceOf(CollectiveFailedException.class);
            assertThat(chain(outcome.cause())).as("rank %d", rank).noneMatch(ArithmeticException.class::isInstance)
                    .noneMatch(e -> e instanceof IndexOutOfBoundsException);
            if (rank == victim) {
                assertThat(chain(outcome.cause())).filteredOn(MalformedMessageException.class::isInstance)
                        .singleElement().extracting(Throwable::getMessage).asString()
                        .contains("malformed message from rank " + attack.forger()).contains(attack.problem());
            }
        }
        assertTheNodesStillRunCollectives();
    }

    private void assertTheNodesStillRunCollectives() {
        int collective = sequence.incrementAndGet();
        List<Future<Buffer>> results = new ArrayList<>();
        for (Communicator member : grid.world()) {
            Promise<Buffer> result = Promise.promise();
            member.context().runOnContext(ignored -> {
                Exchange exchange = exchange(member, Operation.BCAST, collective);
                exchange.run(() -> new TreeBroadcast(exchange, CHAIN, 0)
                        .run(member.rank() == 0 ? Buffer.buffer("still here") : null, 4)).onComplete(result);
            });
            results.add(result.future());
        }
        assertThat(results).allSatisfy(result -> assertThat(LocalGrid.await(result).toString()).isEqualTo("still here"));
    }

    private static Exchange exchange(Communicator member, Operation operation, int collective) {
        return new Exchange(member.collectiveChannel(), operation, collective, 0, "test#" + member.rank());
    }

    private static CollectiveFrame.Header header(Operation operation, int collective) {
        return new CollectiveFrame.Header(CollectiveFrame.Kind.DATA, operation, 0, collective, 0);
    }

    private static Buffer data(Operation operation, int collective, Buffer body) {
        return CollectiveFrame.data(header(operation, collective), body);
    }

    private static List<Throwable> chain(Throwable error) {
        List<Throwable> causes = new ArrayList<>();
        for (Throwable e = error; e != null && !causes.contains(e); e = e.getCause()) {
            causes.add(e);
        }
        return causes;
    }
}
