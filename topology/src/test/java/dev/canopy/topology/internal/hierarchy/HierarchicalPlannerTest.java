package dev.canopy.topology.internal.hierarchy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.SharedLatencyData;
import dev.canopy.topology.internal.graph.LatencyGraph;
import dev.canopy.topology.internal.graph.LatencySource;
import dev.canopy.topology.internal.tree.CostModel;
import dev.canopy.topology.internal.tree.PlanningResult;
import dev.canopy.topology.internal.tree.Tree;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HierarchicalPlannerTest {

    /** Two wan groups; wan "eu" has sites "paris" (2 clusters, one with 2 hosts of 2 processes) and "lyon". */
    private static Hierarchy grid() {
        Map<String, Coordinates> members = new LinkedHashMap<>();
        members.put("p0", new Coordinates("eu", "paris", "lan", "c1", "h1"));
        members.put("p1", new Coordinates("eu", "paris", "lan", "c1", "h1"));
        members.put("p2", new Coordinates("eu", "paris", "lan", "c1", "h2"));
        members.put("p3", new Coordinates("eu", "paris", "lan", "c1", "h2"));
        members.put("p4", new Coordinates("eu", "paris", "lan", "c2", "h3"));
        members.put("l0", new Coordinates("eu", "lyon", "lan", "c1", "h1"));
        members.put("t0", new Coordinates("asia", "tokyo", "lan", "c1", "h1"));
        members.put("t1", new Coordinates("asia", "tokyo", "lan", "c1", "h2"));
        return Hierarchy.of(members);
    }

    /** One-way latency by link level: heavy 100, light 10, lan 1, cluster 0.1, host 0.01 ms. */
    private static final LatencySource BY_LEVEL = (from, to) -> {
        Coordinates a = grid().coordinates(from);
        return switch (a.linkLevel(grid().coordinates(to))) {
            case HEAVY_WAN -> 100;
            case LIGHT_WAN -> 10;
            case LAN -> 1;
            case CLUSTER -> 0.1;
            case HOST -> 0.01;
        };
    };

    private final HierarchicalPlanner planner = new HierarchicalPlanner(LevelAlgorithms.mpichGx(), CostModel.LATENCY_ONLY);

    @Test
    void plansOneTreePerGroupTopDownThroughCoordinators() {
        HierarchicalPlan plan = planner.plan(grid(), BY_LEVEL, "p2", 7).orElseThrow();
        assertThat(plan.epoch()).isEqualTo(7);
        assertThat(plan.arrivalMs().keySet()).containsExactlyInAnyOrderElementsOf(grid().members());
        GroupTree heavy = plan.treesAt(Level.HEAVY_WAN).get(0);
        assertThat(heavy.tree().root()).isEqualTo("p2");
        assertThat(heavy.tree().nodes()).containsExactly("p2", "t0");
        assertThat(heavy.tree().algorithm()).isEqualTo("hlot");
        assertThat(plan.treesAt(Level.LIGHT_WAN)).singleElement()
                .satisfies(tree -> assertThat(tree.tree().nodes()).containsExactly("p2", "l0"));
        assertThat(plan.treesAt(Level.LAN)).singleElement()
                .satisfies(tree -> assertThat(tree.tree().nodes()).containsExactly("p2", "p4"));
        assertThat(plan.coordinatorChain("p1")).containsExactly("p2", "p0", "p1");
        assertThat(plan.coordinatorChain("t1")).containsExactly("p2", "t0", "t1");
        assertThat(plan.sends("p2")).containsExactly("t0", "l0", "p4", "p0", "p3");
        assertThat(plan.parent("p2")).isEmpty();
        assertThat(plan.arrivalMs().get("t1")).isCloseTo(100.1, within(1e-9));
        assertThat(plan.predictedCompletionMs()).isCloseTo(100.1, within(1e-9));
    }

    @Test
    void aCoordinatorSendsAtCoarseLevelsBeforeFineOnes() {
        CostModel overhead = new CostModel(1, 0, 0, 0);
        HierarchicalPlan plan = new HierarchicalPlanner(LevelAlgorithms.mpichGx(), overhead).plan(grid(), BY_LEVEL, "p2", 1).orElseThrow();
        // p2 sends: t0 (heavy), l0 (light), p4 (lan), p0 (cluster), p3 (host): the k-th send costs k ms
        assertThat(plan.arrivalMs().get("t0")).isCloseTo(1 + 100, within(1e-9));
        assertThat(plan.arrivalMs().get("l0")).isCloseTo(2 + 10, within(1e-9));
        assertThat(plan.arrivalMs().get("p4")).isCloseTo(3 + 1, within(1e-9));
        assertThat(plan.arrivalMs().get("p0")).isCloseTo(4 + 0.1, within(1e-9));
        assertThat(plan.arrivalMs().get("p3")).isCloseTo(5 + 0.01, within(1e-9));
        assertThat(plan.arrivalMs().get("t1")).isCloseTo(101 + 1 + 0.1, within(1e-9));
    }

    @Test
    void arrivalsFollowTheGroupTreesOnRealData() {
        LatencyGraph graph = SharedLatencyData.load("planetlab490_first64.csv");
        Hierarchy derived = Hierarchy.derive(graph.toMatrix(), LevelThresholds.DEFAULTS);
        for (LevelAlgorithms algorithms : List.of(LevelAlgorithms.mpichGx(), LevelAlgorithms.everywhere(TreeAlgorithm.AUTO))) {
            HierarchicalPlan plan = new HierarchicalPlanner(algorithms, CostModel.LATENCY_ONLY)
                    .plan(derived, graph, "pl010", 1).orElseThrow();
            for (String member : derived.members()) {
                plan.parent(member).ifPresent(parent -> assertThat(plan.arrivalMs().get(member))
                        .isCloseTo(plan.arrivalMs().get(parent) + graph.oneWayMs(parent, member), within(1e-9)));
            }
            assertThat(plan.coordinatorChain("pl064").get(0)).isEqualTo("pl010");
            assertThat(plan.predictedCompletionMsOn(graph)).isEqualTo(plan.predictedCompletionMs());
        }
    }

    @Test
    void anUnmeasuredCoordinatorLinkIsReportedWithLevelAndGroup() {
        LatencySource holes = (from, to) -> from.startsWith("t") != to.startsWith("t") ? LatencySource.UNMEASURED
                : BY_LEVEL.oneWayMs(from, to);
        PlanningResult<HierarchicalPlan> result = planner.plan(grid(), holes, "p0", 1);
        assertThat(result).isInstanceOf(PlanningResult.Unreachable.class);
        assertThat(((PlanningResult.Unreachable<HierarchicalPlan>) result).node()).isEqualTo("t0");
        assertThatThrownBy(result::orElseThrow).hasMessageContaining("at level heavy_wan");
    }

    @Test
    void plansAreValuesWithAnEpoch() {
        HierarchicalPlan plan = planner.plan(grid(), BY_LEVEL, "p0", 1).orElseThrow();
        assertThat(planner.plan(grid(), BY_LEVEL, "p0", 1).orElseThrow()).isEqualTo(plan).hasSameHashCodeAs(plan);
        HierarchicalPlan next = plan.withEpoch(2);
        assertThat(next.epoch()).isEqualTo(2);
        assertThat(next).isNotEqualTo(plan);
        assertThat(next.trees()).isEqualTo(plan.trees());
        assertThatThrownBy(() -> plan.trees().add(plan.trees().get(0))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void reevaluatesTheSameTreesOnFreshForecasts() {
        HierarchicalPlan plan = planner.plan(grid(), BY_LEVEL, "p0", 1).orElseThrow();
        LatencySource slowerWan = (from, to) -> BY_LEVEL.oneWayMs(from, to) == 100 ? 300 : BY_LEVEL.oneWayMs(from, to);
        assertThat(plan.predictedCompletionMsOn(slowerWan)).isCloseTo(300.1, within(1e-9));
        LatencySource lostLink = (from, to) -> from.equals("p0") && to.equals("t0") ? LatencySource.UNMEASURED
                : BY_LEVEL.oneWayMs(from, to);
        assertThat(plan.predictedCompletionMsOn(lostLink)).isEqualTo(Double.POSITIVE_INFINITY);
    }

    @Test
    void aCommunicatorPlansOverItsMembersOnly() {
        Hierarchy communicator = grid().restrictTo(List.of("t1", "p3", "l0"));
        assertThat(communicator.members()).containsExactly("p3", "l0", "t1");
        HierarchicalPlan plan = planner.plan(communicator, BY_LEVEL, "t1", 1).orElseThrow();
        assertThat(plan.arrivalMs()).containsOnlyKeys("p3", "l0", "t1");
        assertThat(plan.trees().stream().map(GroupTree::tree).map(Tree::root)).contains("t1");
        assertThatThrownBy(() -> planner.plan(communicator, BY_LEVEL, "p0", 1)).hasMessageContaining("'p0' is not a member");
    }
}
