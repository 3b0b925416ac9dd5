package dev.canopy.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.collectives.grid.SyntheticLatencies;
import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.collectives.internal.engine.RootedTree;
import dev.canopy.collectives.plan.CollectivePlan;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.SizeClasses;
import dev.canopy.collectives.plan.SizedPlan;
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
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Collectives on a plan with trees per message size pick their size class's trees by themselves: real nodes on
 * 127.0.0.1, a plan whose classes (from 0 B, 1 KiB and 64 KiB) use flat, binomial and chain trees, so each class
 * moves its bytes over different edges. Which class plan every member ran each collective on is observed
 * ({@link CollectiveObserver.Observation#ranOn}), not timed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SizedCollectivesTest {

    private static final int SIZE = 8;
    private static final long BASE_ID = 7;
    private static final SizeClasses CLASSES = new SizeClasses(List.of(0L, 1L << 10, 64L << 10));
    private static final List<TreeAlgorithm> CLASS_TREES = List.of(TreeAlgorithm.FLAT, TreeAlgorithm.BINOMIAL,
            TreeAlgorithm.CHAIN);

    private LocalGrid grid;
    private List<Collectives> members;
    /** Per "rank/sequence of start", the id of the class plan the member ran the collective on. */
    private final Map<String, Long> ranOn = new ConcurrentHashMap<>();
    /** The sequence number rank 0's latest collective took. */
    private final AtomicInteger lastSequence = new AtomicInteger(-1);

    @BeforeAll
    void startGrid() {
        grid = LocalGrid.start("sized-collectives", SIZE);
        members = grid.world().stream().map(world -> new Collectives(world, sizedPlan(world), CollectiveSettings.defaults())
                .withObserver(observerOf(world.rank()))).toList();
    }

    @AfterAll
    void stopGrid() {
        grid.close();
    }

    private static SizedPlan sizedPlan(Communicator world) {
        return sizedPlan(world, BASE_ID, CLASSES, CLASS_TREES);
    }

    private static SizedPlan sizedPlan(Communicator world, long id, SizeClasses classes, List<TreeAlgorithm> trees) {
        return new SizedPlan(id, classes, k -> new TopologyPlan(world.members(),
                new HierarchicalPlanner(LevelAlgorithms.everywhere(trees.get(k)), ConfiguredPlans.COST),
                new SyntheticLatencies(world.members()), SizedPlan.classId(id, k)));
    }

    /** Records the class plan of each collective a member ran, by its rank and the collective's sequence number. */
    private CollectiveObserver observerOf(int rank) {
        return (operation, root, bytes) -> new CollectiveObserver.Observation() {
            private long sequence;

            @Override
            public void sequenced(int contextId, long sequenceNumber, long epoch) {
                sequence = sequenceNumber;
                if (rank == 0) {
                    lastSequence.set((int) sequenceNumber);
                }
            }

            @Override
            public void ranOn(CollectivePlan classPlan) {
                ranOn.put(rank + "/" + sequence, classPlan.epoch());
            }

            @Override
            public void completed(Throwable failure) {
            }
        };
    }

    @Test
    void aSmallAndALargeBcastBackToBackGoOverTheirOwnSizeClassesTrees() {
        SizedPlan plan = (SizedPlan) members.get(0).plan();
        assertThat(edges(plan.forBytes(2).tree(0))).as("the trees of the small and the large class differ")
                .isNotEqualTo(edges(plan.forBytes(256 << 10).tree(0)));
        byte[] small = {1, 2};
        byte[] large = bytes(256 << 10, 11);
        int sequence = sequenceNow();
        List<Future<Buffer>> smallBcasts = new ArrayList<>();
        List<Future<Buffer>> largeBcasts = new ArrayList<>();
        for (Collectives member : members) {
            boolean root = member.rank() == 0;
            smallBcasts.add(member.bcast(root ? Buffer.buffer(small) : null, 0));
            largeBcasts.add(member.bcast(root ? Buffer.buffer(large) : null, 0));
        }
        assertThat(smallBcasts).allSatisfy(b -> assertThat(LocalGrid.await(b).getBytes()).isEqualTo(small));
        assertThat(largeBcasts).allSatisfy(b -> assertThat(LocalGrid.await(b).getBytes()).isEqualTo(large));
        for (int rank = 0; rank < SIZE; rank++) {
            assertThat(ranOn.get(rank + "/" + sequence)).as("rank %d's small bcast", rank)
                    .isEqualTo(SizedPlan.classId(BASE_ID, 0));
            assertThat(ranOn.get(rank + "/" + (sequence + 1))).as("rank %d's large bcast", rank)
                    .isEqualTo(SizedPlan.classId(BASE_ID, 2));
        }
    }

    /** Seeded: bcasts, scatters, reduces, allreduces, gathers and allgathers of every class from several roots, all in flight at once. */
    @Test
    void aMixedStreamOfSizesFromSeveralRootsInFlightAtOnceStaysExact() {
        SplittableRandom random = new SplittableRandom(42);
        int count = 30;
        int[] kinds = new int[count];
        int[] roots = new int[count];
        int[] lengths = new int[count];
        long[] classBytes = {2, 3 << 10, 96 << 10};
        for (int i = 0; i < count; i++) {
            kinds[i] = random.nextInt(6);
            roots[i] = random.nextInt(SIZE);
            lengths[i] = (int) (classBytes[random.nextInt(3)] / 8) * 8 + 8 * random.nextInt(4);
        }
        int first = sequenceNow();
        List<List<Future<?>>> started = new ArrayList<>();
        for (Collectives member : members) {
            List<Future<?>> mine = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                mine.add(start(member, kinds[i], roots[i], lengths[i], i));
            }
            started.add(mine);
        }
        for (Collectives member : members) {
            int rank = member.rank();
            for (int i = 0; i < count; i++) {
                Object result = LocalGrid.await(started.get(rank).get(i));
                check(rank, kinds[i], roots[i], lengths[i], i, result);
                long bytes = kinds[i] == 1 ? (long) lengths[i] * SIZE : lengths[i];
                assertThat(ranOn.get(rank + "/" + (first + i))).as("rank %d, collective %d (kind %d, %d bytes)", rank, i,
                        kinds[i], bytes).isEqualTo(SizedPlan.classId(BASE_ID, CLASSES.classOf(kinds[i] == 1 ? bytes : lengths[i])));
            }
        }
    }

    @Test
    void membersPassingSizesOfDifferentClassesFailWithAMismatchAndNoneHangs() {
        List<Future<Buffer>> started = new ArrayList<>();
        for (Collectives member : members) {
            int longs = member.rank() == 5 ? 20_000 : 4;
            started.add(member.allreduce(Buffer.buffer(new byte[longs * 8]), ElementType.LONG, BuiltInOp.SUM));
        }
        List<String> failures = new ArrayList<>();
        for (Future<Buffer> allreduce : started) {
            Future<Buffer> outcome = LocalGrid.awaitOutcome(allreduce);
            assertThat(outcome.failed()).as("every member's allreduce fails").isTrue();
            assertThat(outcome.cause()).isInstanceOf(CollectiveFailedException.class);
            failures.add(outcome.cause().getMessage());
        }
        assertThat(failures).anySatisfy(message -> assertThat(message).contains("for a message of 160000 bytes",
                "pass messages of one size class"));
        // The communicator stays usable.
        members.stream().map(Collectives::barrier).toList().forEach(LocalGrid::await);
    }

    /**
     * Classes whose trees from rank 0 are the same (binomial for both) need no size check: each allreduce is exact on
     * its own class, and members of different classes still fail, at the first data frame whose class id differs.
     */
    @Test
    void classesWithTheSameTreesFromTheRootStillTellMixedSizesApart() {
        long sameTreesId = 9;
        List<Collectives> sameTrees = members.stream().map(member -> member.withPlan(sizedPlan(
                grid.world().get(member.rank()), sameTreesId, new SizeClasses(List.of(0L, 1L << 10)),
                List.of(TreeAlgorithm.BINOMIAL, TreeAlgorithm.BINOMIAL)))).toList();
        for (long bytes : new long[] {8, 2 << 10}) {
            int sequence = sequenceNow();
            List<Future<Buffer>> sums = sameTrees.stream()
                    .map(member -> member.allreduce(longs((int) bytes, member.rank(), 0), ElementType.LONG, BuiltInOp.SUM))
                    .toList();
            assertThat(sums).allSatisfy(sum -> assertThat(LocalGrid.await(sum)).isEqualTo(sum((int) bytes, 0)));
            for (int rank = 0; rank < SIZE; rank++) {
                assertThat(ranOn.get(rank + "/" + sequence)).as("rank %d's allreduce of %d bytes", rank, bytes)
                        .isEqualTo(SizedPlan.classId(sameTreesId, bytes < 1024 ? 0 : 1));
            }
        }
        List<Future<Buffer>> mixed = sameTrees.stream().map(member -> member.allreduce(
                Buffer.buffer(new byte[member.rank() == 5 ? 2048 : 32]), ElementType.LONG, BuiltInOp.SUM)).toList();
        for (Future<Buffer> allreduce : mixed) {
            Future<Buffer> outcome = LocalGrid.awaitOutcome(allreduce);
            assertThat(outcome.failed()).as("every member's allreduce fails").isTrue();
            assertThat(outcome.cause()).isInstanceOf(CollectiveFailedException.class);
        }
        assertThat(mixed).anySatisfy(allreduce -> assertThat(allreduce.cause()).hasRootCauseInstanceOf(
                CollectiveMismatchException.class));
        sameTrees.stream().map(Collectives::barrier).toList().forEach(LocalGrid::await);
    }

    private Future<?> start(Collectives member, int kind, int root, int length, int i) {
        boolean isRoot = member.rank() == root;
        return switch (kind) {
            case 0 -> member.bcast(isRoot ? Buffer.buffer(bytes(length, i)) : null, root);
            case 1 -> member.scatter(isRoot ? Buffer.buffer(bytes(length * SIZE, i)) : null, length, root);
            case 2 -> member.reduce(longs(length, member.rank(), i), ElementType.LONG, BuiltInOp.SUM, root);
            case 3 -> member.allreduce(longs(length, member.rank(), i), ElementType.LONG, BuiltInOp.SUM);
            case 4 -> member.gather(Buffer.buffer(bytes(length, i * SIZE + member.rank())), root);
            default -> member.allgather(Buffer.buffer(bytes(length, i * SIZE + member.rank())));
        };
    }

    @SuppressWarnings("unchecked")
    private static void check(int rank, int kind, int root, int length, int i, Object result) {
        switch (kind) {
            case 0 -> assertThat(((Buffer) result).getBytes()).isEqualTo(bytes(length, i));
            case 1 -> assertThat(((Buffer) result).getBytes()).isEqualTo(
                    Buffer.buffer(bytes(length * SIZE, i)).getBytes(rank * length, (rank + 1) * length));
            case 2 -> assertThat((Optional<Buffer>) result).isEqualTo(rank == root ? Optional.of(sum(length, i)) : Optional.empty());
            case 3 -> assertThat((Buffer) result).isEqualTo(sum(length, i));
            case 4 -> assertThat((Optional<Buffer>) result).isEqualTo(rank == root ? Optional.of(all(length, i)) : Optional.empty());
            default -> assertThat((Buffer) result).isEqualTo(all(length, i));
        }
    }

    private static Buffer all(int length, int i) {
        Buffer all = Buffer.buffer();
        for (int rank = 0; rank < SIZE; rank++) {
            all.appendBytes(bytes(length, i * SIZE + rank));
        }
        return all;
    }

    private static Buffer longs(int length, int rank, int i) {
        Buffer values = Buffer.buffer(length);
        for (int k = 0; k < length / 8; k++) {
            values.appendLong((long) k * (rank + 1) + i);
        }
        return values;
    }

    private static Buffer sum(int length, int i) {
        Buffer values = Buffer.buffer(length);
        for (int k = 0; k < length / 8; k++) {
            long total = 0;
            for (int rank = 0; rank < SIZE; rank++) {
                total += (long) k * (rank + 1) + i;
            }
            values.appendLong(total);
        }
        return values;
    }

    private static byte[] bytes(int length, long seed) {
        byte[] data = new byte[length];
        new SplittableRandom(seed).nextBytes(data);
        return data;
    }

    /** The sequence number rank 0's next collective takes (every collective started before has completed). */
    private int sequenceNow() {
        return lastSequence.get() + 1;
    }

    private static List<String> edges(RootedTree tree) {
        List<String> edges = new ArrayList<>();
        for (int rank = 0; rank < tree.size(); rank++) {
            for (int child : tree.children(rank)) {
                edges.add(rank + "->" + child);
            }
        }
        return edges;
    }
}
