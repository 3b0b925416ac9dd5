package dev.canopy.dashboard.record;

import dev.canopy.collectives.engine.Operation;
import dev.canopy.core.node.Member;
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

    /** The communicator's name on the dashboard: WORLD (context 1) or its context id. */
    String communicatorName() {
        return contextId == 1 ? "WORLD" : "context " + contextId;
    }
}
