package dev.canopy.collectives.plan;

import dev.canopy.collectives.internal.engine.RootedTree;
import dev.canopy.core.node.Member;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.topology.internal.graph.LatencySource;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlan;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.hierarchy.Hierarchy;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A communicator's plan from the topology module: for each root, the hierarchical plan over the
 * members' coordinates (heavy-WAN tree between wan-group coordinators, light-WAN tree between site
 * coordinators, then LAN, cluster and host trees), flattened into one tree over ranks in which every
 * coordinator sends at its coarsest level first.
 *
 * <p>Every member builds the same plan from the same inputs (members in rank order, the same
 * latencies, algorithms and epoch), so the plans agree without being exchanged. Trees are computed
 * on first use per root and kept; instances are confined to the communicator's context. Collectives ask
 * through {@link #treeOffLoop}: planning a root of a large job takes up to several hundred ms of CPU, which
 * an event loop must not spend, so it runs on a worker thread (reading only this plan's immutable inputs).
 */
public final class TopologyPlan implements CollectivePlan {

    private final List<Member> members;
    private final Map<String, Integer> rankByName;
    private final Hierarchy hierarchy;
    private final HierarchicalPlanner planner;
    private final LatencySource latencies;
    private final long epoch;
    private final Map<Integer, HierarchicalPlan> plans = new HashMap<>();
    private final Map<Integer, RootedTree> trees = new HashMap<>();

    /** One root's plan and its tree over ranks, computed together off the event loop. */
    private record Planned(HierarchicalPlan plan, RootedTree tree) {
    }

    /**
     * @param members the communicator's members by rank
     * @param latencies one-way latencies between members, by {@link #nameOf(Member)}
     */
    public TopologyPlan(List<Member> members, HierarchicalPlanner planner, LatencySource latencies, long epoch) {
        this.members = List.copyOf(members);
        this.planner = planner;
        this.latencies = latencies;
        this.epoch = epoch;
        Map<String, Coordinates> coordinates = new LinkedHashMap<>();
        this.rankByName = new HashMap<>();
        for (int rank = 0; rank < members.size(); rank++) {
            String name = nameOf(members.get(rank));
            coordinates.put(name, members.get(rank).coordinates());
            rankByName.put(name, rank);
        }
        this.hierarchy = Hierarchy.of(coordinates);
    }

    /** The name a member has in the hierarchy and the latency source: its node id. */
    public static String nameOf(Member member) {
        return member.id().value();
    }

    @Override
    public long epoch() {
        return epoch;
    }

    @Override
    public RootedTree tree(int root) {
        return trees.computeIfAbsent(root, r -> flatten(r, hierarchicalPlan(r)));
    }

    @Override
    public Future<RootedTree> treeOffLoop(int root, Context context) {
        RootedTree known = trees.get(root);
        if (known != null) {
            return Future.succeededFuture(known);
        }
        checkRank(root);
        return context.executeBlocking(() -> {
            HierarchicalPlan plan = computePlan(root);
            return new Planned(plan, flatten(root, plan));
        }, false).map(planned -> {
            // Back on the context; two collectives may have asked for the same root meanwhile: the first one's stays.
            plans.putIfAbsent(root, planned.plan());
            return trees.computeIfAbsent(root, r -> planned.tree());
        });
    }

    @Override
    public double oneWayMs(int from, int to) {
        if (from < 0 || to < 0 || from >= members.size() || to >= members.size()) {
            throw new IllegalArgumentException("ranks " + from + " and " + to + " are not both ranks of this "
                    + members.size() + "-member plan");
        }
        return from == to ? 0 : latencies.oneWayMs(nameOf(members.get(from)), nameOf(members.get(to)));
    }

    @Override
    public double transferMs(int from, int to) {
        oneWayMs(from, to); // checks the ranks
        return from == to ? 0 : planner.cost().transferMs(nameOf(members.get(from)), nameOf(members.get(to)));
    }

    /** The topology module's plan for {@code root}, with its predicted arrivals. */
    public HierarchicalPlan hierarchicalPlan(int root) {
        return plans.computeIfAbsent(root, this::computePlan);
    }

    private void checkRank(int root) {
        if (root < 0 || root >= members.size()) {
            throw new IllegalArgumentException("root " + root + " is not a rank of this " + members.size()
                    + "-member plan");
        }
    }

    /** Reads only immutable fields, so it may run on any thread. */
    private HierarchicalPlan computePlan(int root) {
        return planner.plan(hierarchy, latencies, nameOf(members.get(root)), epoch).orElseThrow();
    }

    /** Reads only immutable fields, so it may run on any thread. */
    private RootedTree flatten(int root, HierarchicalPlan plan) {
        List<List<Integer>> children = new ArrayList<>(members.size());
        for (Member member : members) {
            children.add(plan.sends(nameOf(member)).stream().map(rankByName::get).toList());
        }
        return RootedTree.fromChildren(root, children);
    }
}
