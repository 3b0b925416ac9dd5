package dev.canopy.cli.topology;

import dev.canopy.cli.table.Column;
import dev.canopy.cli.table.TextTable;
import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.hierarchy.GroupTree;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlan;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.CostModel;
import dev.canopy.topology.internal.tree.Tree;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code canopy topology hierarchy}: the hierarchical plan the runtime would follow: levels from
 * {@code --config} or derived from RTTs, one tree per group (level file's algorithms, MPICH-GX's by
 * default, or {@code --algorithm} at every level), arrivals composed across levels.
 */
@Command(name = "hierarchy", mixinStandardHelpOptions = true,
        description = "Plan a broadcast level by level (one tree per group) and predict every arrival.")
final class TopologyHierarchyCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TreeInputOptions treeInput;

    @Option(names = "--config", paramLabel = "FILE.rsl", description = "Level file: coordinates, thresholds and level algorithms.")
    private Path config;

    @Option(names = "--algorithm", paramLabel = "ALG", description = "One tree method at every level instead (e.g. auto).")
    private String algorithm;

    @Mixin
    private CostOptionsMixin costOptions;

    @Option(names = "--json", description = "Print the plan as JSON.")
    private boolean json;

    @Override
    public Integer call() throws Exception {
        return BadInput.run(spec, () -> {
            CostModel cost = costOptions.costModel();
            TreeInputOptions.RootedInput rooted = treeInput.load();
            LatencyInput input = rooted.input();
            LevelSource levels = LevelSource.of(config, input.matrix());
            LevelAlgorithms algorithms = algorithm == null ? levels.algorithms()
                    : LevelAlgorithms.everywhere(TreeAlgorithm.parse(algorithm));
            HierarchicalPlan plan = new HierarchicalPlanner(algorithms, cost)
                    .plan(levels.hierarchy(), input.graph(), treeInput.root, 1).orElseThrow();
            JsonObject result = toJson(plan, input, levels.origin().jsonName());
            PrintWriter out = spec.commandLine().getOut();
            out.println(json ? result.encodePrettily() : describe(plan));
            out.flush();
            return BadInput.EXIT_OK;
        });
    }

    private static JsonObject toJson(HierarchicalPlan plan, LatencyInput input, String source) {
        JsonObject levels = new JsonObject();
        for (Level level : Level.values()) {
            JsonArray groups = new JsonArray();
            for (GroupTree group : plan.treesAt(level)) {
                JsonArray edges = new JsonArray();
                Tree tree = group.tree();
                for (Tree.Edge edge : tree.edges()) {
                    String parent = tree.nodes().get(edge.parent());
                    String child = tree.nodes().get(edge.child());
                    edges.add(new JsonObject().put("parent", parent).put("child", child)
                            .put("latency_ms", input.graph().oneWayMs(parent, child)));
                }
                groups.add(new JsonObject().put("group", group.groupKey()).put("algorithm", tree.algorithm())
                        .put("coordinator", tree.root()).put("edges", edges));
            }
            levels.put(level.configName(), groups);
        }
        JsonObject arrivals = new JsonObject();
        plan.arrivalMs().forEach(arrivals::put);
        return new JsonObject().put("root", plan.root()).put("members", plan.arrivalMs().size()).put("levels_from", source)
                .put("levels", levels).put("arrival_ms", arrivals).put("predicted_completion_ms", plan.predictedCompletionMs())
                .put("lower_bound_ms", TreePlanJson.lowerBoundMs(input.matrix(), input.rootIndex(plan.root())));
    }

    private static String describe(HierarchicalPlan plan) {
        StringBuilder text = new StringBuilder(String.format("hierarchical plan from %s over %d members: predicted completion %.3f ms%n",
                plan.root(), plan.arrivalMs().size(), plan.predictedCompletionMs()));
        TextTable table = TextTable.of(Column.text("level"), Column.integer("group trees", null), Column.text("tree"),
                Column.integer("largest tree size", null));
        for (Level level : Level.values()) {
            var trees = plan.treesAt(level);
            table.row(level.configName(), trees.size(), trees.isEmpty() ? null : trees.get(0).tree().algorithm(),
                    trees.isEmpty() ? null : trees.stream().mapToInt(t -> t.tree().size()).max().orElse(0));
        }
        text.append(table.render());
        return text.toString().stripTrailing();
    }
}
