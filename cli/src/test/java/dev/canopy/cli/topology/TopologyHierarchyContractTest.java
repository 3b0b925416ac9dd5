package dev.canopy.cli.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TopologyHierarchyContractTest {

    @Test
    void plansEveryMemberLevelByLevelOnDerivedLevels() {
        CliRun run = CliRun.of("topology", "hierarchy", "--latency", CliRun.sharedLatency("planetlab490_first64.csv").toString(),
                "--root", "pl010", "--json");
        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonObject plan = new JsonObject(run.out());
        assertThat(plan.getString("levels_from")).isEqualTo("derived");
        assertThat(plan.getInteger("members")).isEqualTo(64);
        JsonObject arrivals = plan.getJsonObject("arrival_ms");
        assertThat(arrivals.size()).isEqualTo(64);
        JsonArray heavy = plan.getJsonObject("levels").getJsonArray("heavy_wan");
        assertThat(heavy).hasSize(1);
        assertThat(heavy.getJsonObject(0).getString("coordinator")).isEqualTo("pl010");
        assertThat(heavy.getJsonObject(0).getString("algorithm")).isEqualTo("hlot");
        Set<String> children = new HashSet<>();
        double completion = 0;
        for (String level : plan.getJsonObject("levels").fieldNames()) {
            for (Object group : plan.getJsonObject("levels").getJsonArray(level)) {
                for (Object item : ((JsonObject) group).getJsonArray("edges")) {
                    JsonObject edge = (JsonObject) item;
                    assertThat(children.add(edge.getString("child"))).as("%s receives once", edge.getString("child")).isTrue();
                    assertThat(arrivals.getDouble(edge.getString("child")))
                            .isCloseTo(arrivals.getDouble(edge.getString("parent")) + edge.getDouble("latency_ms"), within(1e-9));
                    completion = Math.max(completion, arrivals.getDouble(edge.getString("child")));
                }
            }
        }
        assertThat(children).hasSize(63).doesNotContain("pl010");
        assertThat(plan.getDouble("predicted_completion_ms")).isCloseTo(completion, within(1e-9));
        assertThat(plan.getDouble("lower_bound_ms")).isLessThanOrEqualTo(completion);
    }

    @Test
    void anUnknownAlgorithmExitsWithTwo() {
        CliRun run = CliRun.of("topology", "hierarchy", "--latency", CliRun.sharedLatency("planetlab490_first64.csv").toString(),
                "--root", "pl010", "--algorithm", "quickest");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("canopy topology hierarchy: unknown --algorithm 'quickest'");
    }
}
