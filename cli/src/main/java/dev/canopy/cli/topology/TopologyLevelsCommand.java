package dev.canopy.cli.topology;

import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.hierarchy.Hierarchy;
import dev.canopy.topology.internal.hierarchy.LevelThresholds;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code canopy topology levels}: the five levels' groups. With {@code --config}, nodes named after
 * hosts or sites of the level file take its coordinates ({@link LevelFileNodes}); otherwise levels are
 * derived from measured RTTs by complete linkage, with the file's thresholds or the defaults (host
 * 0.05, cluster 0.3, LAN 2, light-WAN 30 ms RTT).
 */
@Command(name = "levels", mixinStandardHelpOptions = true,
        description = "Group the nodes of --latency into the five levels (heavy_wan, light_wan, lan, cluster, host).")
final class TopologyLevelsCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--latency", required = true, paramLabel = "FILE.csv", description = "Latency CSV with header from,to,rtt_ms.")
    private Path latency;

    @Option(names = "--config", paramLabel = "FILE.rsl", description = "Level file: coordinates of hosts and sites, thresholds.")
    private Path config;

    @Option(names = "--json", description = "Print the levels as JSON.")
    private boolean json;

    @Override
    public Integer call() throws Exception {
        return BadInput.run(spec, () -> {
            LevelSource levelSource = LevelSource.of(config, LatencyInput.load(latency).matrix());
            Hierarchy hierarchy = levelSource.hierarchy();
            LevelThresholds thresholds = levelSource.thresholds();
            JsonObject levels = new JsonObject();
            JsonObject thresholdsJson = new JsonObject();
            for (Level level : Level.values()) {
                JsonArray groups = new JsonArray();
                hierarchy.groups(level).forEach(group -> groups.add(new JsonArray(List.copyOf(group))));
                levels.put(level.configName(), groups);
                if (level != Level.HEAVY_WAN) {
                    thresholdsJson.put(level.configName(), thresholds.rttMs(level));
                }
            }
            JsonObject result = new JsonObject().put("levels", levels).put("source", levelSource.origin().jsonName())
                    .put("threshold_rtt_ms", thresholdsJson);
            PrintWriter out = spec.commandLine().getOut();
            out.println(json ? result.encodePrettily() : describe(levels));
            out.flush();
            return BadInput.EXIT_OK;
        });
    }

    private static String describe(JsonObject levels) {
        StringBuilder text = new StringBuilder();
        for (String level : levels.fieldNames()) {
            JsonArray groups = levels.getJsonArray(level);
            text.append(String.format("%s: %d group(s)%n", level, groups.size()));
            for (Object group : groups) {
                text.append("  ").append(String.join(", ", ((JsonArray) group).stream().map(String::valueOf).toList()))
                        .append(System.lineSeparator());
            }
        }
        return text.toString().stripTrailing();
    }
}
