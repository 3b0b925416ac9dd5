package dev.canopy.topology.internal.hierarchy;

import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import dev.canopy.topology.internal.graph.LatencySource;
import dev.canopy.topology.internal.tree.CostModel;
import dev.canopy.topology.internal.tree.Tree;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An immutable broadcast plan for one communicator and root: the tree of every group of every level
 * (coarsest first) and the predicted arrival of every member. The message crosses the heavy-WAN tree
 * between wan-group coordinators, then each light-WAN tree between site coordinators, and so on down
 * to the processes of each host; a coordinator forwards at each level it coordinates, coarse first.
 *
 * <p>{@link #epoch()} numbers plans: a plan leader bumps it on every re-plan, and members follow
 * the plan with the highest epoch they have seen.
 */
public final class HierarchicalPlan {

    private final long epoch;
    private final String root;
    private final CostModel cost;
    private final List<GroupTree> trees;
    private final Map<String, Double> arrivalMs;
    private final double predictedCompletionMs;
    private final Map<String, String> parentOf = new HashMap<>();
    private final Map<String, List<String>> sendsOf = new HashMap<>();

    HierarchicalPlan(long epoch, String root, CostModel cost, List<GroupTree> trees, Map<String, Double> arrivalMs,
            double predictedCompletionMs) {
        this.epoch = epoch;
        this.root = Objects.requireNonNull(root, "root");
        this.cost = Objects.requireNonNull(cost, "cost");
        this.trees = List.copyOf(trees);
        this.arrivalMs = Collections.unmodifiableMap(new LinkedHashMap<>(arrivalMs));
        this.predictedCompletionMs = predictedCompletionMs;
        for (GroupTree groupTree : this.trees) {
            Tree tree = groupTree.tree();
            for (Tree.Edge edge : tree.edges()) {
                String parent = tree.nodes().get(edge.parent());
                String child = tree.nodes().get(edge.child());
                parentOf.put(child, parent);
                sendsOf.computeIfAbsent(parent, key -> new ArrayList<>()).add(child);
            }
        }
        sendsOf.replaceAll((node, children) -> List.copyOf(children));
    }

    /**
     * Arrival of every member when this plan's trees carry a message under {@code otherCost} (another
     * size, bandwidths or pipelining), replayed as the runtime runs the flattened tree.
     */
    public Map<String, Double> replay(LatencySource latencies, CostModel otherCost) {
        return FlattenedArrivals.of(root, trees, latencies, otherCost);
    }

    /** The same plan under another epoch number. */
    public HierarchicalPlan withEpoch(long newEpoch) {
        return new HierarchicalPlan(newEpoch, root, cost, trees, arrivalMs, predictedCompletionMs);
    }

    public long epoch() {
        return epoch;
    }

    public String root() {
        return root;
    }

    public CostModel cost() {
        return cost;
    }

    /** Every group's tree, coarsest level first; groups with a single unit have none. */
    public List<GroupTree> trees() {
        return trees;
    }

    public List<GroupTree> treesAt(Level level) {
        return trees.stream().filter(tree -> tree.level() == level).toList();
    }

    /** Predicted arrival of every member, ms after the root starts. */
    public Map<String, Double> arrivalMs() {
        return arrivalMs;
    }

    public double predictedCompletionMs() {
        return predictedCompletionMs;
    }

    /** Who sends the message to {@code member}; empty for the root. */
    public Optional<String> parent(String member) {
        requireMember(member);
        return Optional.ofNullable(parentOf.get(member));
    }

    /** Whom {@code member} forwards to, in send order across levels (coarsest level first). */
    public List<String> sends(String member) {
        requireMember(member);
        return sendsOf.getOrDefault(member, List.of());
    }

    /** The coordinators the message passes from the root down to {@code member}, both included. */
    public List<String> coordinatorChain(String member) {
        requireMember(member);
        List<String> chain = new ArrayList<>();
        for (String at = member; at != null; at = parentOf.get(at)) {
            chain.add(at);
        }
        Collections.reverse(chain);
        return List.copyOf(chain);
    }

    /**
     * The completion this plan's trees would have on fresh forecasts (same trees, new latencies);
     * positive infinity when a link it uses is no longer measured. Feed it to
     * {@link dev.canopy.topology.internal.replan.ReplanPolicy} beside a new plan's prediction.
     */
    public double predictedCompletionMsOn(LatencySource fresh) {
        PlanArrivals arrivals = new PlanArrivals(cost, root);
        for (GroupTree groupTree : trees) {
            arrivals.add(groupTree.tree(), LatencyMatrix.of(groupTree.tree().nodes(), fresh));
        }
        return arrivals.completionMs();
    }

    private void requireMember(String member) {
        if (!arrivalMs.containsKey(member)) {
            throw new IllegalArgumentException("'" + member + "' is not a member of this plan");
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HierarchicalPlan that && epoch == that.epoch && root.equals(that.root)
                && cost.equals(that.cost) && trees.equals(that.trees) && arrivalMs.equals(that.arrivalMs);
    }

    @Override
    public int hashCode() {
        return Objects.hash(epoch, root, cost, trees, arrivalMs);
    }

    @Override
    public String toString() {
        return "HierarchicalPlan[epoch " + epoch + ", root " + root + ", " + arrivalMs.size() + " members, "
                + trees.size() + " group trees, predicted " + predictedCompletionMs + " ms]";
    }
}
