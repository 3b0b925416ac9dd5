package dev.canopy.topology.internal.hierarchy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.RandomLatencies.Symmetry;
import dev.canopy.topology.internal.RandomLatencies;
import dev.canopy.topology.internal.SharedLatencyData;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Derived levels nest and keep every measured pair of a group within the level's threshold. */
class CompleteLinkageLevelsTest {

    @Test
    void levelsNestAndRespectThresholdsOnEverySharedMatrix() {
        for (Path file : SharedLatencyData.files()) {
            LatencyMatrix matrix = SharedLatencyData.load(file).toMatrix();
            Hierarchy hierarchy = Hierarchy.derive(matrix, LevelThresholds.DEFAULTS);
            assertNestedWithinThresholds(hierarchy, matrix, LevelThresholds.DEFAULTS);
        }
    }

    @Test
    void planetlabHasTightSitesAndSeveralWanGroups() {
        LatencyMatrix matrix = SharedLatencyData.load("planetlab490_first64.csv").toMatrix();
        Hierarchy hierarchy = Hierarchy.derive(matrix, LevelThresholds.DEFAULTS);
        assertThat(hierarchy.groups(Level.HEAVY_WAN)).hasSize(1);
        assertThat(hierarchy.groups(Level.LIGHT_WAN).size()).isBetween(2, 63);
        assertThat(hierarchy.groups(Level.LAN).size()).isLessThan(64).isGreaterThanOrEqualTo(hierarchy.groups(Level.LIGHT_WAN).size());
    }

    @Property(tries = 100)
    void levelsNestAndRespectThresholdsOnRandomGraphs(@ForAll long seed, @ForAll @IntRange(min = 1, max = 50) int n,
            @ForAll Symmetry symmetry) {
        LatencyMatrix matrix = RandomLatencies.matrix(seed, n, 0.2, symmetry);
        LevelThresholds thresholds = new LevelThresholds(0.3, 0.6, 1.0, 40);
        assertNestedWithinThresholds(Hierarchy.derive(matrix, thresholds), matrix, thresholds);
    }

    @Test
    void groupsCloseNodesAndSeparatesFarOnes() {
        double inf = Double.POSITIVE_INFINITY;
        // a,b same host (0.02 ms RTT); c same cluster (0.2); d same site (1.5); e 20 ms away; f unmeasured to e
        double[][] rtt = {
            {0, 0.02, 0.2, 1.5, 20, 100},
            {0.02, 0, 0.2, 1.5, 20, 100},
            {0.2, 0.2, 0, 1.5, 20, 100},
            {1.5, 1.5, 1.5, 0, 20, 100},
            {20, 20, 20, 20, 0, inf},
            {100, 100, 100, 100, inf, 0}};
        double[] oneWay = new double[36];
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 6; j++) {
                oneWay[i * 6 + j] = rtt[i][j] / 2;
            }
        }
        LatencyMatrix matrix = LatencyMatrix.ofRowMajor(List.of("a", "b", "c", "d", "e", "f"), oneWay);
        Hierarchy hierarchy = Hierarchy.derive(matrix, LevelThresholds.DEFAULTS);
        assertThat(hierarchy.groups(Level.HOST)).containsExactly(List.of("a", "b"), List.of("c"), List.of("d"), List.of("e"), List.of("f"));
        assertThat(hierarchy.groups(Level.CLUSTER)).containsExactly(List.of("a", "b", "c"), List.of("d"), List.of("e"), List.of("f"));
        assertThat(hierarchy.groups(Level.LAN)).containsExactly(List.of("a", "b", "c", "d"), List.of("e"), List.of("f"));
        assertThat(hierarchy.groups(Level.LIGHT_WAN)).containsExactly(List.of("a", "b", "c", "d", "e"), List.of("f"));
        assertThat(hierarchy.groups(Level.HEAVY_WAN)).containsExactly(List.of("a", "b", "c", "d", "e", "f"));
    }

    static void assertNestedWithinThresholds(Hierarchy hierarchy, LatencyMatrix matrix, LevelThresholds thresholds) {
        Level[] levels = Level.values();
        Set<String> everyone = new HashSet<>();
        for (List<String> group : hierarchy.groups(Level.HEAVY_WAN)) {
            everyone.addAll(group);
        }
        assertThat(everyone).containsExactlyInAnyOrderElementsOf(matrix.nodes());
        for (int l = 0; l < levels.length; l++) {
            Map<String, Integer> groupOf = new HashMap<>();
            List<List<String>> groups = hierarchy.groups(levels[l]);
            for (int g = 0; g < groups.size(); g++) {
                for (String member : groups.get(g)) {
                    assertThat(groupOf.put(member, g)).as("%s in one %s group", member, levels[l]).isNull();
                }
                if (levels[l] == Level.HEAVY_WAN) {
                    continue; // no threshold
                }
                for (String a : groups.get(g)) {
                    for (String b : groups.get(g)) {
                        int i = matrix.indexOf(a);
                        int j = matrix.indexOf(b);
                        if (i != j && matrix.linked(i, j)) {
                            assertThat(2 * matrix.latency(i, j)).as("RTT %s -> %s inside a %s group", a, b, levels[l])
                                    .isLessThanOrEqualTo(thresholds.rttMs(levels[l]));
                        }
                    }
                }
            }
            assertThat(groupOf).hasSize(matrix.size());
            if (l + 1 < levels.length) {
                for (List<String> finer : hierarchy.groups(levels[l + 1])) {
                    Set<Integer> parents = new HashSet<>();
                    finer.forEach(member -> parents.add(groupOf.get(member)));
                    assertThat(parents).as("%s group %s lies inside one %s group", levels[l + 1], finer, levels[l]).hasSize(1);
                }
            }
        }
    }
}
