package dev.canopy.collectives.reference;

import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** One point of the correctness cross product, with the seed of its input data. */
public record CollectiveCase(Operation operation, TreeAlgorithm algorithm, int size, RootPosition rootPosition,
        SizeClass sizeClass, ReductionChoice reduction, long dataSeed) {

    /** Communicator sizes of the suite: 1 to 33, odd and powers of two. */
    public static final List<Integer> SIZES = List.of(1, 2, 3, 4, 5, 7, 8, 16, 17, 32, 33);
    /** Every tree method of the topology module. */
    public static final List<TreeAlgorithm> ALGORITHMS = List.of(TreeAlgorithm.values());

    public int root() {
        return rootPosition.rank(size);
    }

    /**
     * A sample covering every operation with every algorithm, and for each operation every size class
     * and root position; reductions alternate between the rank-ordered (non-commutative) operator and
     * operators drawn from {@code seed}, like sizes and data. Large messages
     * go to communicators of at most 8 members, to keep the sample's memory small.
     */
    public static List<CollectiveCase> sample(long seed) {
        Random random = new Random(seed);
        List<CollectiveCase> cases = new ArrayList<>();
        List<ReductionChoice> reductions = ReductionChoice.all();
        int counter = 0;
        for (Operation operation : Operation.values()) {
            for (int a = 0; a < ALGORITHMS.size(); a++) {
                SizeClass sizeClass = SizeClass.values()[(a + operation.ordinal()) % SizeClass.values().length];
                List<Integer> sizes = sizeClass == SizeClass.LARGE ? SIZES.subList(0, 7) : SIZES;
                int size = sizes.get(random.nextInt(sizes.size()));
                RootPosition root = RootPosition.values()[(a + counter) % RootPosition.values().length];
                // Every third case uses the rank-ordered operator, which shows tree order errors; the rest draw.
                ReductionChoice reduction = a % 3 == 0 ? ReductionChoice.RANK_ORDERED
                        : reductions.get(random.nextInt(reductions.size()));
                cases.add(new CollectiveCase(operation, ALGORITHMS.get(a), size, root, sizeClass, reduction, random.nextLong()));
                counter++;
            }
        }
        return cases;
    }

    /** The full cross product (every operation, algorithm, size, root position and size class). */
    public static List<CollectiveCase> exhaustive(long seed) {
        Random random = new Random(seed);
        List<CollectiveCase> cases = new ArrayList<>();
        List<ReductionChoice> reductions = ReductionChoice.all();
        int counter = 0;
        for (Operation operation : Operation.values()) {
            for (TreeAlgorithm algorithm : ALGORITHMS) {
                for (int size : SIZES) {
                    for (RootPosition root : RootPosition.values()) {
                        for (SizeClass sizeClass : SizeClass.values()) {
                            cases.add(new CollectiveCase(operation, algorithm, size, root, sizeClass,
                                    reductions.get(counter++ % reductions.size()), random.nextLong()));
                        }
                    }
                }
            }
        }
        return cases;
    }

    @Override
    public String toString() {
        return operation.displayName() + " " + algorithm.configName() + " size " + size + " root " + root() + " ("
                + rootPosition + ") " + sizeClass + " " + reduction + " data seed " + dataSeed;
    }
}
