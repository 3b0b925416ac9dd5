package dev.canopy.cli.topology;

import dev.canopy.cli.table.Column;
import dev.canopy.cli.table.TextTable;
import dev.canopy.topology.internal.tree.CostModel;
import dev.canopy.topology.internal.tree.PlanningResult;
import dev.canopy.topology.internal.tree.Tree;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code canopy topology compare}: every tree's predicted completion beside the lower bound. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Predict the completion of every tree method from --root over --latency, beside the lower bound.")
final class TopologyCompareCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TreeInputOptions treeInput;

    @Mixin
    private CostOptionsMixin costOptions;

    @Option(names = "--json", description = "Print the comparison as JSON.")
    private boolean json;

    @Override
    public Integer call() throws Exception {
        return BadInput.run(spec, () -> {
            CostModel cost = costOptions.costModel();
            TreeInputOptions.RootedInput rooted = treeInput.load();
            LatencyInput input = rooted.input();
            int rootIndex = rooted.root();
            double lowerBound = TreePlanJson.lowerBoundMs(input.matrix(), rootIndex);
            JsonArray rows = new JsonArray();
            for (TreeAlgorithm algorithm : TreeAlgorithm.values()) {
                PlanningResult<Tree> tree = algorithm.builder().build(input.matrix(), rootIndex, cost);
                JsonObject row = new JsonObject().put("algorithm", algorithm.configName());
                if (tree.isPlanned()) {
                    double completion = cost.predict(tree.orElseThrow(), input.matrix()).completionMs();
                    row.put("chosen_algorithm", tree.orElseThrow().algorithm()).put("predicted_completion_ms", completion)
                            .put("ratio_to_lower_bound", lowerBound == 0 ? null : completion / lowerBound)
                            .put("height", tree.orElseThrow().height());
                } else {
                    row.putNull("predicted_completion_ms");
                }
                rows.add(row);
            }
            JsonObject result = new JsonObject().put("root", treeInput.root).put("nodes", input.matrix().size())
                    .put("lower_bound_ms", lowerBound).put("trees", rows);
            PrintWriter out = spec.commandLine().getOut();
            out.println(json ? result.encodePrettily() : table(result));
            out.flush();
            return BadInput.EXIT_OK;
        });
    }

    private static String table(JsonObject result) {
        TextTable table = TextTable.of(Column.text("tree"), Column.decimal("predicted completion", "ms", 3),
                Column.decimal("x lower bound", null, 2), Column.integer("height", null));
        for (Object item : result.getJsonArray("trees")) {
            JsonObject row = (JsonObject) item;
            String name = row.getString("algorithm").equals("auto")
                    ? "auto (" + row.getString("chosen_algorithm") + ")" : row.getString("algorithm");
            if (row.getValue("predicted_completion_ms") == null) {
                table.row(name, "impossible (missing links)", null, null);
            } else {
                Double ratio = row.getDouble("ratio_to_lower_bound");
                table.row(name, row.getDouble("predicted_completion_ms"), ratio == null ? "n/a" : ratio,
                        row.getInteger("height"));
            }
        }
        table.row("lower bound (SPT, zero overhead)", result.getDouble("lower_bound_ms"), 1.0, null);
        return table.render().stripTrailing();
    }
}
