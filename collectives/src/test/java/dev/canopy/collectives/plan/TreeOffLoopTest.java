package dev.canopy.collectives.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.internal.engine.RootedTree;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.ProcessPlacement;
import dev.canopy.topology.internal.graph.LatencySource;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.LogGpParameters;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A collective asks its plan for a root's tree on the communicator's event loop; the planning (every latency
 * the planner reads) happens on a worker thread, the answer comes back on the event loop and is kept.
 */
@Timeout(30)
class TreeOffLoopTest {

    private final GridModel grid = GridConfigs.defaultGrid();
    private final Vertx vertx = CanopyVertx.create();
    private final Set<String> readOn = ConcurrentHashMap.newKeySet();
    private final AtomicInteger reads = new AtomicInteger();

    @AfterEach
    void closeVertx() {
        Await.result(vertx.close());
    }

    @Test
    void theTreeIsPlannedOnAWorkerThreadAndKeptOnTheContext() {
        List<Member> members = members();
        LatencySource configured = new GridLatencies(grid, ConfiguredPlans.coordinatesOf(members),
                LogGpParameters.DEFAULTS);
        TopologyPlan plan = plan(members, recording(configured));
        Context context = vertx.getOrCreateContext();
        int root = members.size() - 1;

        RootedTree tree = Await.result(onContext(context, () -> plan.treeOffLoop(root, context)
                .map(planned -> {
                    assertThat(Vertx.currentContext()).as("the tree comes back on the collective's context")
                            .isSameAs(context);
                    return planned;
                })));

        assertThat(reads.get()).as("the planner read latencies").isPositive();
        assertThat(readOn).as("threads the planner read latencies on").isNotEmpty()
                .allSatisfy(thread -> assertThat(thread).doesNotContain("eventloop"));
        RootedTree planned = plan(members, configured).tree(root); // the same inputs, planned on this thread
        assertThat(tree.root()).isEqualTo(root);
        for (int rank = 0; rank < members.size(); rank++) {
            assertThat(tree.children(rank)).as("children of rank %d", rank).containsExactly(planned.children(rank));
        }

        int readsBefore = reads.get();
        assertThat(Await.result(onContext(context, () -> plan.treeOffLoop(root, context)))).isSameAs(tree);
        assertThat(plan.tree(root)).isSameAs(tree);
        assertThat(reads.get()).as("a kept tree is not planned again").isEqualTo(readsBefore);
    }

    private TopologyPlan plan(List<Member> members, LatencySource latencies) {
        return new TopologyPlan(members, new HierarchicalPlanner(LevelChoices.of(grid.levels()), ConfiguredPlans.COST),
                latencies, 0);
    }

    private LatencySource recording(LatencySource latencies) {
        return (from, to) -> {
            reads.incrementAndGet();
            readOn.add(Thread.currentThread().getName());
            return latencies.oneWayMs(from, to);
        };
    }

    private List<Member> members() {
        List<Member> members = new ArrayList<>();
        for (ProcessPlacement process : grid.processes()) {
            members.add(new Member(NodeId.of("p" + process.globalIndex()), process.coordinates(),
                    new NodeAddress("127.0.0.1", 1000 + process.globalIndex(), 1000 + process.globalIndex())));
        }
        members.sort(Member.RANK_ORDER);
        return members;
    }

    private static <T> Future<T> onContext(Context context, Supplier<Future<T>> action) {
        Promise<T> result = Promise.promise();
        context.runOnContext(v -> action.get().onComplete(result));
        return result.future();
    }
}
