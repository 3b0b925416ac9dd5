package dev.canopy.dashboard.plan;

import dev.canopy.collectives.internal.leader.PublishedPlan;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.collectives.plan.TopologyPlan;
import dev.canopy.core.node.Member;
import dev.canopy.dashboard.model.JobSnapshot;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.topology.internal.hierarchy.GroupTree;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlan;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.tree.Tree;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The trees a job's collectives follow, as the dashboard draws them: the plan of the newest published epoch
 * (rebuilt from its latency snapshot exactly as every member does) or, before the first, the level file's
 * configured plan; per level and group the tree with its algorithm and edges (by rank), and every member's
 * predicted arrival for a broadcast from {@code root}.
 */
public final class PlanView {

    private final GridModel grid;
    private final HierarchicalPlanner planner;

    public PlanView(GridModel grid) {
        this.grid = grid;
        this.planner = new HierarchicalPlanner(LevelChoices.of(grid.levels()), ConfiguredPlans.COST);
    }

    /** The collectives engine's plan for the snapshot's members: the published one if it fits them. */
    public TopologyPlan plan(JobSnapshot snapshot, Optional<PublishedPlan> published) {
        List<Member> members = snapshot.ranked();
        if (published.isPresent()) {
            List<String> names = members.stream().map(TopologyPlan::nameOf).toList();
            if (names.equals(published.get().latencies().members())) {
                return published.get().collectivePlan(members, planner);
            }
        }
        return ConfiguredPlans.of(members, grid);
    }

    /** @throws IllegalArgumentException when {@code root} is not a rank of the job */
    public JsonObject toJson(JobSnapshot snapshot, Optional<PublishedPlan> published, int root) {
        List<Member> members = snapshot.ranked();
        if (members.isEmpty()) {
            return new JsonObject().put("epoch", null).put("source", "none").put("root", root)
                    .put("levels", new JsonArray()).put("arrivals", new JsonArray());
        }
        if (root < 0 || root >= members.size()) {
            throw new IllegalArgumentException("root " + root + " is not a rank of this " + members.size()
                    + "-member job; give 0 to " + (members.size() - 1));
        }
        TopologyPlan plan = plan(snapshot, published);
        boolean live = published.isPresent() && plan.epoch() == published.get().epoch();
        HierarchicalPlan hierarchical = plan.hierarchicalPlan(root);
        Map<String, Integer> rankOf = new HashMap<>();
        for (int rank = 0; rank < members.size(); rank++) {
            rankOf.put(TopologyPlan.nameOf(members.get(rank)), rank);
        }
        JsonArray levels = new JsonArray();
        for (GroupTree group : hierarchical.trees()) {
            levels.add(groupJson(group, rankOf, hierarchical));
        }
        JsonArray arrivals = new JsonArray();
        hierarchical.arrivalMs().forEach((name, ms) -> arrivals.add(new JsonObject().put("rank", rankOf.get(name))
                .put("id", name).put("arrival_ms", ms)));
        JsonObject json = new JsonObject()
                .put("epoch", plan.epoch())
                .put("source", live ? "published" : "configured")
                .put("root", root)
                .put("predicted_completion_ms", hierarchical.predictedCompletionMs())
                .put("levels", levels)
                .put("arrivals", arrivals);
        if (live) {
            json.put("reason", published.get().reason());
        }
        return json;
    }

    private static JsonObject groupJson(GroupTree group, Map<String, Integer> rankOf, HierarchicalPlan plan) {
        Tree tree = group.tree();
        JsonArray edges = new JsonArray();
        for (Tree.Edge edge : tree.edges()) {
            String parent = tree.nodes().get(edge.parent());
            String child = tree.nodes().get(edge.child());
            edges.add(new JsonObject().put("parent", rankOf.get(parent)).put("child", rankOf.get(child))
                    .put("child_arrival_ms", plan.arrivalMs().get(child)));
        }
        return new JsonObject()
                .put("level", group.level().configName())
                .put("group", group.groupKey())
                .put("algorithm", tree.algorithm())
                .put("root", rankOf.get(tree.root()))
                .put("nodes", new JsonArray(tree.nodes().stream().map(rankOf::get).toList()))
                .put("edges", edges);
    }

    /** The algorithm of each level's trees in the plan rooted at {@code root}, e.g. {@code {"heavy_wan":"hlot"}}. */
    public static JsonObject algorithmsByLevel(TopologyPlan plan, int root) {
        JsonObject json = new JsonObject();
        for (GroupTree group : plan.hierarchicalPlan(root).trees()) {
            json.put(group.level().configName(), group.tree().algorithm());
        }
        return json;
    }
}
