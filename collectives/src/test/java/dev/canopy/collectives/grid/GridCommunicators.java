package dev.canopy.collectives.grid;

import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.Completion;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.TopologyPlan;
import dev.canopy.core.comm.Communicator;
import dev.canopy.topology.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.hierarchy.LevelAlgorithms;
import dev.canopy.topology.tree.TreeAlgorithm;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
                // Odd algorithms run with agreed completion, so both completion modes meet the reference.
                CollectiveSettings settings = algorithm.ordinal() % 2 == 0 ? CollectiveSettings.defaults()
                        : CollectiveSettings.defaults().withCompletion(Completion.AGREED);
                byAlgorithm.put(algorithm, base.stream()
                        .map(collectives -> collectives.withPlan(planFor(collectives.communicator(), algorithm))
                                .withSettings(settings))
                        .toList());
            }
            bySize.put(size, byAlgorithm);
        }
    }

    /** One {@link Collectives} per rank of the {@code size}-member communicator, following {@code algorithm} at every level. */
    public List<Collectives> members(int size, TreeAlgorithm algorithm) {
        return bySize.get(size).get(algorithm);
    }

    static TopologyPlan planFor(Communicator communicator, TreeAlgorithm algorithm) {
        return new TopologyPlan(communicator.members(),
                new HierarchicalPlanner(LevelAlgorithms.everywhere(algorithm), ConfiguredPlans.COST),
                new SyntheticLatencies(communicator.members()), algorithm.ordinal());
    }
}
