package dev.canopy.topology.internal.hierarchy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.ProcessPlacement;
import dev.canopy.gridconfig.model.Thresholds;
import dev.canopy.topology.internal.graph.LatencySource;
import dev.canopy.topology.internal.tree.CostModel;
import dev.canopy.topology.internal.tree.Tree;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A hierarchical plan for the 32 processes of the bundled 8-site MPICH-GX level file. */
class LevelFilePlanTest {

    private final GridModel grid = GridConfigs.loadBundled(GridConfigs.DEFAULT_EXAMPLE).orElseThrow();

    private Hierarchy processes() {
        Map<String, Coordinates> members = new LinkedHashMap<>();
        for (ProcessPlacement process : grid.processes()) {
            members.put(process.subjobLabel() + "#" + process.indexInSubjob(), process.coordinates());
        }
        return Hierarchy.of(members);
    }

    /** Configured site RTTs between sites, 0.1 ms inside a site, 0.01 ms inside a host; all one-way = RTT / 2. */
    private LatencySource configuredLatency(Hierarchy hierarchy) {
        return (from, to) -> {
            Coordinates a = hierarchy.coordinates(from);
            Coordinates b = hierarchy.coordinates(to);
            return switch (a.linkLevel(b)) {
                case HEAVY_WAN, LIGHT_WAN -> grid.linkBetween(a.site(), b.site()).rttMs() / 2;
                case LAN, CLUSTER -> 0.05;
                case HOST -> 0.005;
            };
        };
    }

    @Test
    void hlotAtTheHeavyWanRelaysAroundTheSlowYonseiKistiLink() {
        Hierarchy hierarchy = processes();
        HierarchicalPlanner planner = new HierarchicalPlanner(LevelAlgorithms.fromLevelFile(grid.levels()), CostModel.LATENCY_ONLY);
        HierarchicalPlan plan = planner.plan(hierarchy, configuredLatency(hierarchy), "yonsei-a#0", 1).orElseThrow();
        Tree heavy = plan.treesAt(Level.HEAVY_WAN).get(0).tree();
        assertThat(heavy.algorithm()).isEqualTo("hlot");
        assertThat(heavy.nodes()).containsExactly("yonsei-a#0", "ajou-a#0", "kut-a#0", "kisti-a#0");
        assertThat(heavy.parent("kisti-a#0")).as("the direct Yonsei-KISTI link (190 ms one way) is avoided")
                .isNotEqualTo(java.util.Optional.of("yonsei-a#0"));
        assertThat(plan.arrivalMs().get("kisti-a#0")).isLessThan(190);
        assertThat(plan.arrivalMs()).hasSize(32);
        assertThat(plan.treesAt(Level.LIGHT_WAN)).hasSize(4);

        HierarchicalPlan flat = new HierarchicalPlanner(LevelAlgorithms.fromLevelFile(grid.levels())
                .with(Level.HEAVY_WAN, TreeAlgorithm.FLAT), CostModel.LATENCY_ONLY)
                .plan(hierarchy, configuredLatency(hierarchy), "yonsei-a#0", 1).orElseThrow();
        assertThat(plan.predictedCompletionMs()).isLessThan(flat.predictedCompletionMs());
    }

    @Test
    void levelFileChoicesAndThresholdsMapOntoTopology() {
        LevelAlgorithms algorithms = LevelAlgorithms.fromLevelFile(grid.levels());
        assertThat(algorithms.at(Level.HEAVY_WAN)).isEqualTo(TreeAlgorithm.HLOT);
        assertThat(algorithms.at(Level.LIGHT_WAN)).isEqualTo(TreeAlgorithm.FLAT);
        assertThat(algorithms.at(Level.LAN)).as("multicast reaches every unit in one step").isEqualTo(TreeAlgorithm.FLAT);
        assertThat(LevelThresholds.from(grid.thresholds())).isEqualTo(new LevelThresholds(0.05, 0.3, 2, 10));
        assertThat(LevelThresholds.from(Thresholds.DEFAULTS)).isEqualTo(LevelThresholds.DEFAULTS);
    }
}
