package dev.canopy.cli.bench.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyCommand;
import dev.canopy.dynamic.InterPhase;
import dev.canopy.dynamic.spawn.SpawnTimeline;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code canopy bench dynamic --json} prints exactly the keys of the contract, plus the spawn phases; bad
 * shapes, runs, a one-site level file without {@code --spawn-only} and two of the -only options are refused.
 */
class DynamicBenchJsonTest {

    @Test
    void theJsonHasExactlyTheContractsKeysAndValuesPlusTheSpawnPhases() {
        JsonObject json = DynamicBenchCommand.toJson(
                List.of(new SpawnBench.Latency(2, 4, SpawnBench.Mode.WARM, 2, 5, 812.5,
                        new SpawnTimeline(10, 20, 500, 510, 812.5))),
                List.of(new SpawnBench.Rate(SpawnBench.Mode.COLD, 1.25)),
                List.of(new InterBench.Merge(16, 42.0, 30.0)),
                List.of(new InterBench.P2p("inter", 8, 950.0)),
                List.of(new InterBench.Collective("bcast", 524288, InterPhase.FLAT, 1.0, 2.0, 3.0)));

        assertThat(json.fieldNames()).containsExactlyInAnyOrder("spawn", "spawn_phases", "spawn_rate", "merge", "p2p",
                "intercomm");
        assertThat(json.getJsonArray("spawn").getJsonObject(0).getMap()).containsOnlyKeys("parents", "children", "mode", "mean_ms")
                .containsEntry("mode", "warm").containsEntry("parents", 2).containsEntry("children", 4);
        JsonObject phases = json.getJsonArray("spawn_phases").getJsonObject(0);
        assertThat(phases.getMap()).containsOnlyKeys("parents", "children", "mode", "warmup", "runs", "phases_ms")
                .containsEntry("mode", "warm").containsEntry("warmup", 2).containsEntry("runs", 5);
        assertThat(phases.getJsonObject("phases_ms").getMap()).containsOnlyKeys("port", "request", "children_join",
                "tell_parents", "accept").containsEntry("children_join", 480.0).containsEntry("accept", 302.5);
        assertThat(json.getJsonArray("spawn_rate").getJsonObject(0).getMap()).containsOnlyKeys("mode", "spawns_per_s")
                .containsEntry("mode", "cold");
        assertThat(json.getJsonArray("merge").getJsonObject(0).getMap()).containsOnlyKeys("size", "mean_ms");
        assertThat(json.getJsonArray("p2p").getJsonObject(0).getMap()).containsOnlyKeys("kind", "bytes", "median_us")
                .containsEntry("kind", "inter");
        assertThat(json.getJsonArray("intercomm").getJsonObject(0).getMap())
                .containsOnlyKeys("op", "bytes", "inter_phase", "min_ms", "avg_ms", "max_ms")
                .containsEntry("inter_phase", "flat").containsEntry("bytes", 524288);
    }

    @Test
    void badShapesRunsAOneSiteGridWithoutSpawnOnlyAndTwoOnlyOptionsAreRefusedWithExitStatus2() {
        for (String[] args : new String[][] {{"--shapes", "2y2"}, {"--shapes", "0x1"}, {"--shapes", "1x17"},
                {"--runs", "0"}, {"--warmup", "-1"}, {"--config", "../examples/grids/one-site-lan.rsl"},
                {"--merge-only", "--spawn-only"}, {"--merge-only", "--intercomm-only"},
                {"--spawn-only", "--intercomm-only"}, {"--warm-only", "--merge-only"}, {"--warm-only", "--intercomm-only"}}) {
            StringWriter err = new StringWriter();
            String[] full = new String[args.length + 2];
            full[0] = "bench";
            full[1] = "dynamic";
            System.arraycopy(args, 0, full, 2, args.length);
            int status = new CommandLine(new CanopyCommand()).setErr(new PrintWriter(err)).execute(full);
            assertThat(status).as(String.join(" ", args)).isEqualTo(2);
            assertThat(err.toString()).as(String.join(" ", args)).startsWith("canopy bench dynamic: ");
        }
    }
}
