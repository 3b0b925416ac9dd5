package dev.canopy.cli.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopologyLevelsContractTest {

    private static final List<String> LEVELS = List.of("heavy_wan", "light_wan", "lan", "cluster", "host");

    @Test
    void levelsPartitionEveryNodeAndNestOnTheSharedData() {
        for (String file : List.of("planetlab490_first64.csv", "azure_p50_27regions.csv")) {
            CliRun run = CliRun.of("topology", "levels", "--latency", CliRun.sharedLatency(file).toString(), "--json");
            assertThat(run.exitCode()).as(run.err()).isZero();
            JsonObject levels = new JsonObject(run.out()).getJsonObject("levels");
            assertThat(levels.fieldNames()).containsExactlyElementsOf(LEVELS);
            assertThat(levels.getJsonArray("heavy_wan")).hasSize(1);
            int nodes = levels.getJsonArray("heavy_wan").getJsonArray(0).size();
            Map<String, Integer> coarserGroup = null;
            for (String level : LEVELS) {
                Map<String, Integer> groupOf = new HashMap<>();
                JsonArray groups = levels.getJsonArray(level);
                for (int g = 0; g < groups.size(); g++) {
                    for (Object member : groups.getJsonArray(g)) {
                        assertThat(groupOf.put((String) member, g)).isNull();
                    }
                }
                assertThat(groupOf).hasSize(nodes);
                if (coarserGroup != null) {
                    for (Object group : groups) {
                        List<Integer> parents = new ArrayList<>();
                        for (Object member : (JsonArray) group) {
                            parents.add(coarserGroup.get((String) member));
                        }
                        assertThat(parents.stream().distinct()).as("%s group %s nests", level, group).hasSize(1);
                    }
                }
                coarserGroup = groupOf;
            }
        }
    }

    @Test
    void aMalformedFileExitsWithTwo() {
        CliRun run = CliRun.of("topology", "levels", "--latency", "does/not/exist.csv", "--json");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("canopy topology levels: does/not/exist.csv: no such file");
    }

    @Test
    void compareListsEveryTreeBesideTheLowerBound() {
        CliRun run = CliRun.of("topology", "compare", "--latency", CliRun.sharedLatency("planetlab490_first64.csv").toString(),
                "--root", "pl001");
        assertThat(run.exitCode()).as(run.err()).isZero();
        for (String tree : new String[] {"flat", "binomial", "mst", "hlot", "spt", "ecef", "auto \\(\\w+\\)",
            "lower bound \\(SPT, zero overhead\\)"}) {
            assertThat(run.out()).containsPattern("(?m)^" + tree + "  +\\d");
        }
    }
}
