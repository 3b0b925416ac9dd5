package dev.canopy.dashboard.record;

import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.collectives.internal.engine.RootedTree;
import dev.canopy.collectives.plan.CollectivePlan;
import dev.canopy.collectives.plan.TopologyPlan;
import dev.canopy.core.node.Member;
import dev.canopy.dashboard.plan.PlanView;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Objects;

/**
 * What a member knew when it started a collective: which one, on which plan, and the plan's tree and
 * predicted arrivals for the operation's root (every member has the same plan, so any member's copy serves).
 *
 * @param parents each rank's parent in the plan's tree for {@code root} ({@code -1} for the root)
 * @param predictedArrivalMs each rank's predicted arrival of the root's data, by rank
 * @param algorithms the algorithm of each level's trees, e.g. {@code {"heavy_wan":"hlot"}}
 */
record OperationStart(int contextId, long sequence, Operation operation, int root, long bytes, long epoch,
        List<Member> members, int[] parents, double[] predictedArrivalMs, JsonObject algorithms) {

    OperationStart {
        Objects.requireNonNull(operation, "operation");
        members = List.copyOf(members);
    }

    /**
     * The operation on {@code plan} (the members' plan when they started it) over {@code members} (in rank order):
     * each rank's parent in the plan's tree from {@code root}, its predicted arrival and the algorithm per level.
     */
    static OperationStart describe(int contextId, long sequence, Operation operation, int root, long bytes, long epoch,
            CollectivePlan plan, List<Member> members) {
        RootedTree tree = plan.tree(root);
        int size = members.size();
        int[] parents = new int[size];
        double[] predicted = new double[size];
        JsonObject algorithms = new JsonObject();
        for (int rank = 0; rank < size; rank++) {
            parents[rank] = tree.parent(rank);
        }
        // A plan with trees per size class describes its class 0 here, the latency trees plan.tree(root) gives.
        if (plan.sizeClassPlans().get(0) instanceof TopologyPlan topology) {
            var arrivals = topology.hierarchicalPlan(root).arrivalMs();
            for (int rank = 0; rank < size; rank++) {
                predicted[rank] = arrivals.getOrDefault(TopologyPlan.nameOf(members.get(rank)), 0.0);
            }
            algorithms = PlanView.algorithmsByLevel(topology, root);
        }
        return new OperationStart(contextId, sequence, operation, root, bytes, epoch, members, parents, predicted,
                algorithms);
    }

    /** The communicator's name on the dashboard: WORLD (context 1) or its context id. */
    String communicatorName() {
        return contextId == 1 ? "WORLD" : "context " + contextId;
    }
}
