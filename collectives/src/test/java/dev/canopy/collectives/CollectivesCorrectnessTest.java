package dev.canopy.collectives;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.grid.GridCommunicators;
import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.reference.CaseRunner;
import dev.canopy.collectives.reference.CollectiveCase;
import dev.canopy.collectives.reference.ReductionChoice;
import dev.canopy.collectives.reference.RootPosition;
import dev.canopy.collectives.reference.SizeClass;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every operation against the sequential reference on real nodes (33 in this JVM, real ZooKeeper,
 * TCP on 127.0.0.1), on communicators of 1 to 33 members made by split, with every tree method of
 * the topology module, every root position and message sizes from 0 B to 4 MB.
 *
 * <p>The default run takes a seeded sample covering every operation, algorithm, size class and root
 * position; it prints its seed ({@code -Dcanopy.seed=N} replays it). {@code -Pexhaustive} runs the
 * full cross product.
 */
@Tag("slow")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CollectivesCorrectnessTest {

    private static final long SEED = Long.getLong("canopy.seed", System.nanoTime());

    private LocalGrid grid;
    private GridCommunicators communicators;

    @BeforeAll
    void startGrid() {
        System.out.println("CollectivesCorrectnessTest seed: " + SEED + " (replay with -Dcanopy.seed=" + SEED + ")");
        grid = LocalGrid.start("correctness", 33);
        communicators = new GridCommunicators(grid, CollectiveCase.SIZES);
    }

    @AfterAll
    void stopGrid() {
        if (grid != null) {
            grid.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Operation.class)
    void seededSampleMatchesTheSequentialReference(Operation operation) {
        CollectiveCase.sample(SEED).stream()
                .filter(c -> c.operation() == operation)
                .forEach(this::run);
    }

    @ParameterizedTest
    @MethodSource("everyReduction")
    void everyOperatorAndTypeReducesLikeTheReference(ReductionChoice reduction) {
        for (Operation operation : List.of(Operation.ALLREDUCE, Operation.SCAN)) {
            run(new CollectiveCase(operation, TreeAlgorithm.HLOT, 7, RootPosition.FIRST, SizeClass.SMALL, reduction, SEED));
        }
    }

    /** MST runs with low calibrated thresholds (see GridCommunicators): these sizes split scatters and gathers. */
    @Test
    void splitScattersAndGathersWithBarriersMatchTheReference() {
        for (int size : List.of(3, 8)) {
            for (SizeClass sizeClass : List.of(SizeClass.SMALL, SizeClass.MEDIUM)) {
                for (Operation operation : List.of(Operation.SCATTER, Operation.GATHER)) {
                    run(new CollectiveCase(operation, TreeAlgorithm.MST, size, RootPosition.LAST, sizeClass,
                            ReductionChoice.RANK_ORDERED, SEED));
                }
            }
        }
    }

    /** Found by the exhaustive run: a subtree's gathered 4 MB blocks exceed the transport's 16 MiB frame limit. */
    @Test
    void messagesAboveTheTransportFrameLimitArriveWhole() {
        run(new CollectiveCase(Operation.SCAN, TreeAlgorithm.FLAT, 16, RootPosition.FIRST, SizeClass.LARGE,
                new ReductionChoice(BuiltInOp.MIN, ElementType.BYTE), SEED));
        run(new CollectiveCase(Operation.ALLGATHERV, TreeAlgorithm.BINOMIAL, 33, RootPosition.FIRST, SizeClass.LARGE,
                ReductionChoice.RANK_ORDERED, SEED));
    }

    /**
     * Multi-site communicators (sites of 1 to 3 members here) run alltoall(v) through the site
     * coordinators, relayed along the fastest routes between them: on the synthetic latencies some
     * aggregates take two or three hops.
     */
    @Test
    void allToAllThroughSiteCoordinatorsMatchesTheReference() {
        for (int size : List.of(2, 7, 17, 33)) {
            for (Operation operation : List.of(Operation.ALLTOALL, Operation.ALLTOALLV)) {
                for (SizeClass sizeClass : List.of(SizeClass.EMPTY, SizeClass.SMALL)) {
                    run(new CollectiveCase(operation, TreeAlgorithm.HLOT, size, RootPosition.FIRST, sizeClass,
                            ReductionChoice.RANK_ORDERED, SEED));
                }
            }
        }
    }

    /** Forced routes: pairwise across sites, and relayed or direct through the coordinators within one site (size 1) too. */
    @ParameterizedTest
    @EnumSource(value = AllToAllRoute.class, names = {"RELAYED", "SITES", "PAIRWISE"})
    void allToAllOnAForcedRouteMatchesTheReference(AllToAllRoute route) {
        for (int size : List.of(1, 7, 33)) {
            List<Collectives> members = communicators.members(size, TreeAlgorithm.HLOT).stream()
                    .map(member -> member.withSettings(CollectiveSettings.defaults().withAllToAllRoute(route)))
                    .toList();
            for (Operation operation : List.of(Operation.ALLTOALL, Operation.ALLTOALLV)) {
                run(new CollectiveCase(operation, TreeAlgorithm.HLOT, size, RootPosition.FIRST, SizeClass.SMALL,
                        ReductionChoice.RANK_ORDERED, SEED), members);
            }
        }
    }

    static List<ReductionChoice> everyReduction() {
        return ReductionChoice.all();
    }

    @Test
    @Tag("exhaustive")
    @Timeout(value = 3, unit = TimeUnit.HOURS)
    void fullCrossProductMatchesTheSequentialReference() {
        // -Dcanopy.operations=scan,exscan runs the cross product of those operations only.
        List<String> only = List.of(System.getProperty("canopy.operations", "").split(","));
        List<CollectiveCase> cases = CollectiveCase.exhaustive(SEED).stream()
                .filter(c -> only.equals(List.of("")) || only.contains(c.operation().displayName()))
                .toList();
        for (int i = 0; i < cases.size(); i++) {
            run(cases.get(i));
            if ((i + 1) % 500 == 0) {
                System.out.println("exhaustive: " + (i + 1) + " of " + cases.size() + " cases passed");
            }
        }
    }

    private void run(CollectiveCase c) {
        run(c, communicators.members(c.size(), c.algorithm()));
    }

    private void run(CollectiveCase c, List<Collectives> members) {
        try {
            CaseRunner.run(c, members);
        } catch (AssertionError e) {
            throw new AssertionError("seed " + SEED + ": " + e.getMessage(), e);
        }
    }
}
