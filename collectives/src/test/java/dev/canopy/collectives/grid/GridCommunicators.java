package dev.canopy.collectives.grid;

import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.Completion;
import dev.canopy.collectives.internal.segmentation.EscalationRange;
import dev.canopy.collectives.internal.segmentation.SegmentationThresholds;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.TopologyPlan;
import dev.canopy.core.comm.Communicator;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Sub-communicators of a {@link LocalGrid}'s WORLD, one per size (the first {@code size} ranks,
 * made with split), and on each one {@link Collectives} per tree algorithm sharing one sequence.
 */
public final class GridCommunicators {

    private final Map<Integer, Map<TreeAlgorithm, List<Collectives>>> bySize = new HashMap<>();

    public GridCommunicators(LocalGrid grid, List<Integer> sizes) {
        for (int size : sizes) {
            List<Future<Communicator>> splits = new ArrayList<>();
            for (Communicator world : grid.world()) {
                splits.add(world.split(world.rank() < size ? 0 : Communicator.UNDEFINED, world.rank()));
            }
            List<Communicator> members = LocalGrid.awaitAll(splits);
            Map<TreeAlgorithm, List<Collectives>> byAlgorithm = new EnumMap<>(TreeAlgorithm.class);
            List<Collectives> base = new ArrayList<>();
            for (Communicator member : members) {
                base.add(new Collectives(member, planFor(member, TreeAlgorithm.HLOT), CollectiveSettings.defaults()));
            }
            for (TreeAlgorithm algorithm : TreeAlgorithm.values()) {
                byAlgorithm.put(algorithm, base.stream()
                        .map(collectives -> collectives.withPlan(planFor(collectives.communicator(), algorithm))
                                .withSettings(settingsFor(algorithm)))
                        .toList());
            }
            bySize.put(size, byAlgorithm);
        }
    }

    /**
     * Odd algorithms run with agreed completion, so both completion modes meet the reference; every
     * third one with low segmentation thresholds, so split scatters (from 16 KiB per rank) and split
     * gathers with barriers (100 B to 20,000 B per rank) run too.
     */
    private static CollectiveSettings settingsFor(TreeAlgorithm algorithm) {
        CollectiveSettings settings = algorithm.ordinal() % 2 == 0 ? CollectiveSettings.defaults()
                : CollectiveSettings.defaults().withCompletion(Completion.AGREED);
        return algorithm.ordinal() % 3 == 2
                ? settings.withThresholds(new SegmentationThresholds(OptionalLong.of(16_384), Optional.of(new EscalationRange(100, 20_000))))
                : settings;
    }

    /** One {@link Collectives} per rank of the {@code size}-member communicator, following {@code algorithm} at every level. */
    public List<Collectives> members(int size, TreeAlgorithm algorithm) {
        return bySize.get(size).get(algorithm);
    }

    public static TopologyPlan planFor(Communicator communicator, TreeAlgorithm algorithm) {
        return new TopologyPlan(communicator.members(),
                new HierarchicalPlanner(LevelAlgorithms.everywhere(algorithm), ConfiguredPlans.COST),
                new SyntheticLatencies(communicator.members()), algorithm.ordinal());
    }
}
