package dev.canopy.topology.internal.hierarchy;

import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import dev.canopy.topology.internal.graph.LatencySource;
import dev.canopy.topology.internal.tree.CostModel;
import dev.canopy.topology.internal.tree.PlanningResult;
import dev.canopy.topology.internal.tree.Tree;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plans a broadcast over a hierarchy, top-down. Each group of each level is contracted to the graph of
 * its units' coordinators, so trees are computed on small matrices: the heavy-WAN group (everyone)
 * connects wan groups, each wan group connects its sites, each site its clusters, each cluster its
 * hosts, each host its processes.
 *
 * <p>Coordinator rule: the root coordinates every group it belongs to; a unit containing its group's
 * coordinator is coordinated by it; any other unit by its first member in hierarchy order (like
 * MPICH-G2's lowest rank). Latencies between coordinators are read from the {@link LatencySource};
 * a group tree uses only measured links. Stateless and thread-safe.
 */
public final class HierarchicalPlanner {

    /** Up to this many members, auto at heavy-WAN replays every candidate's whole plan (see fastestReplay). */
    static final int EXACT_CHOICE_MEMBERS = 2_000;

    private final LevelAlgorithms algorithms;
    private final CostModel cost;

    public HierarchicalPlanner(LevelAlgorithms algorithms, CostModel cost) {
        this.algorithms = algorithms;
        this.cost = cost;
    }

    /** The cost model the trees are chosen and predicted with. */
    public CostModel cost() {
        return cost;
    }

    /**
     * @param hierarchy the communicator's members and their coordinates
     * @param latencies forecast one-way latencies between members
     * @param root the member that holds the message
     * @param epoch the plan's number (see {@link HierarchicalPlan#epoch()})
     * @return the plan, or the first member the measured links cannot reach, naming level and group
     * @throws IllegalArgumentException when {@code root} is not a member
     */
    public PlanningResult<HierarchicalPlan> plan(Hierarchy hierarchy, LatencySource latencies, String root, long epoch) {
        hierarchy.coordinates(root);
        Map<String, String> coordinatorOfGroup = new HashMap<>();
        coordinatorOfGroup.put(levelKey(Level.HEAVY_WAN, hierarchy.coordinates(root).groupKey(Level.HEAVY_WAN)), root);
        PlanArrivals arrivals = new PlanArrivals(cost, root);
        List<GroupTree> trees = new ArrayList<>();
        List<Tree> heavyWanCandidates = List.of();
        for (Level level : Level.values()) {
            CostModel levelCost = costAt(hierarchy, level);
            for (Map.Entry<String, List<String>> group : hierarchy.groupsByKey(level).entrySet()) {
                String coordinator = coordinatorOfGroup.get(levelKey(level, group.getKey()));
                List<String> unitCoordinators = unitCoordinators(hierarchy, level, group.getValue(), coordinator,
                        coordinatorOfGroup);
                if (unitCoordinators.size() == 1) {
                    continue;
                }
                LatencyMatrix matrix = LatencyMatrix.of(unitCoordinators, latencies);
                PlanningResult<Tree> tree = algorithms.at(level).builder()
                        .build(matrix, matrix.indexOf(coordinator), levelCost);
                if (tree instanceof PlanningResult.Unreachable<Tree> unreachable) {
                    return PlanningResult.unreachable(unreachable.node(), "at level " + level.configName()
                            + " in group '" + group.getKey() + "': " + unreachable.reason());
                }
                trees.add(new GroupTree(level, group.getKey(), tree.orElseThrow()));
                if (level == Level.HEAVY_WAN && cost.simulates() && algorithms.at(level) == TreeAlgorithm.AUTO) {
                    heavyWanCandidates = candidates(matrix, matrix.indexOf(coordinator), levelCost, tree.orElseThrow());
                }
                if (!cost.simulates()) {
                    arrivals.add(tree.orElseThrow(), matrix);
                }
            }
        }
        if (cost.simulates()) {
            return PlanningResult.planned(fastestReplay(epoch, root, trees, heavyWanCandidates, latencies,
                    hierarchy.size() <= EXACT_CHOICE_MEMBERS));
        }
        return PlanningResult.planned(new HierarchicalPlan(epoch, root, cost, trees, arrivals.arrivalMs(),
                arrivals.completionMs()));
    }

    /**
     * The heavy-WAN trees worth replaying: {@code auto} weighs the heavy-WAN group on its own, but with
     * bandwidth the group's coordinators go on to feed their sites over the same uplinks, which only the
     * replay of the whole flattened plan sees. So every fixed algorithm's distinct tree (the heavy-WAN group
     * has a handful of units, so these are few and cheap to build) is a candidate beside auto's own choice.
     */
    private static List<Tree> candidates(LatencyMatrix matrix, int coordinator, CostModel levelCost, Tree chosen) {
        Map<List<Tree.Edge>, Tree> distinct = new LinkedHashMap<>();
        distinct.put(chosen.edges(), chosen);
        for (TreeAlgorithm fixed : TreeAlgorithm.values()) {
            if (fixed != TreeAlgorithm.AUTO) {
                if (fixed.builder().build(matrix, coordinator, levelCost) instanceof PlanningResult.Planned<Tree> planned) {
                    distinct.putIfAbsent(planned.value().edges(), planned.value());
                }
            }
        }
        return List.copyOf(distinct.values());
    }

    /**
     * The plan with the heavy-WAN candidate whose replay completes first. Up to {@value #EXACT_CHOICE_MEMBERS}
     * members every candidate's whole plan is replayed. Above, candidates are ranked by a replay of the sends that
     * leave a host (the trees down to the cluster-fabric level: every send that crosses a NIC, a site uplink or a
     * link; a fifth of the members for 10,000 processes of five per host), and only the winner's whole plan is
     * replayed, so choosing costs a fraction of the one full replay; the ranking is then approximate (segment sizes
     * follow the depth of the replayed tree, which the processes of a host deepen).
     */
    private HierarchicalPlan fastestReplay(long epoch, String root, List<GroupTree> trees, List<Tree> heavyWanCandidates,
            LatencySource latencies, boolean exact) {
        if (heavyWanCandidates.size() <= 1) {
            return replayed(epoch, root, trees, latencies);
        }
        HierarchicalPlan best = null;
        List<GroupTree> bestTrees = trees;
        double bestRank = Double.POSITIVE_INFINITY;
        for (Tree candidate : heavyWanCandidates) {
            List<GroupTree> withCandidate = new ArrayList<>(trees);
            GroupTree heavyWan = withCandidate.get(0);
            withCandidate.set(0, new GroupTree(heavyWan.level(), heavyWan.groupKey(), candidate));
            if (exact) {
                HierarchicalPlan plan = replayed(epoch, root, withCandidate, latencies);
                if (best == null || plan.predictedCompletionMs() < best.predictedCompletionMs()) {
                    best = plan;
                }
                continue;
            }
            List<GroupTree> betweenHosts = withCandidate.stream()
                    .filter(group -> group.level().ordinal() <= Level.CLUSTER.ordinal()).toList();
            double rank = FlattenedArrivals.of(root, betweenHosts, latencies, cost).values().stream()
                    .mapToDouble(Double::doubleValue).max().orElse(0);
            if (rank < bestRank) {
                bestRank = rank;
                bestTrees = withCandidate;
            }
        }
        return exact ? best : replayed(epoch, root, bestTrees, latencies);
    }

    private HierarchicalPlan replayed(long epoch, String root, List<GroupTree> trees, LatencySource latencies) {
        Map<String, Double> replayed = FlattenedArrivals.of(root, trees, latencies, cost);
        return new HierarchicalPlan(epoch, root, cost, trees, replayed,
                replayed.values().stream().mapToDouble(Double::doubleValue).max().orElse(0));
    }

    /**
     * The cost model a level's group trees are chosen with. The runtime cuts a message into segments
     * by the depth of the whole flattened tree, which the finer levels below a group deepen; so a
     * group's candidates are weighed with the segments the runtime will use (a star that looks
     * unpipelined on its own is pipelined, and interleaves its children, once sites add a hop).
     */
    private CostModel costAt(Hierarchy hierarchy, Level level) {
        if (!cost.simulates()) {
            return cost;
        }
        int below = 0;
        for (Level finer = Hierarchy.finer(level).orElse(null); finer != null; finer = Hierarchy.finer(finer).orElse(null)) {
            if (hasGroupOfSeveralUnits(hierarchy, finer)) {
                below++;
            }
        }
        if (below == 0) {
            return cost;
        }
        int extra = below;
        return cost.withSegments((bytes, depth) -> cost.segments().segmentBytes(bytes, depth + extra));
    }

    private static boolean hasGroupOfSeveralUnits(Hierarchy hierarchy, Level level) {
        for (List<String> members : hierarchy.groupsByKey(level).values()) {
            String first = hierarchy.unitKey(level, members.get(0));
            for (String member : members) {
                if (!hierarchy.unitKey(level, member).equals(first)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** One coordinator per unit of the group, the group's own coordinator first among its unit. */
    private static List<String> unitCoordinators(Hierarchy hierarchy, Level level, List<String> members,
            String groupCoordinator, Map<String, String> coordinatorOfGroup) {
        Map<String, String> byUnit = new LinkedHashMap<>();
        String coordinatorUnit = hierarchy.unitKey(level, groupCoordinator);
        for (String member : members) {
            String unit = hierarchy.unitKey(level, member);
            byUnit.putIfAbsent(unit, unit.equals(coordinatorUnit) ? groupCoordinator : member);
        }
        Hierarchy.finer(level).ifPresent(finer -> byUnit.forEach((unit, coordinator) ->
                coordinatorOfGroup.put(levelKey(finer, unit), coordinator)));
        return List.copyOf(byUnit.values());
    }

    /** Group keys of different levels could coincide when names contain '/'; the level keeps them apart. */
    private static String levelKey(Level level, String groupKey) {
        return level.ordinal() + ":" + groupKey;
    }
}
