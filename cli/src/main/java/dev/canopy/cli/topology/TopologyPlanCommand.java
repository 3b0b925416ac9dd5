package dev.canopy.cli.topology;

import dev.canopy.cli.plot.PlotFile;
import dev.canopy.cli.plot.TreeSvg;
import dev.canopy.cli.table.Column;
import dev.canopy.cli.table.TextTable;
import dev.canopy.topology.internal.tree.CostModel;
import dev.canopy.topology.internal.tree.Tree;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code canopy topology plan}: one tree over every node of a latency CSV, with predicted arrivals.
 * The JSON keys are a contract other tools rely on (see {@link TreePlanJson}).
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Build a broadcast tree from --root over every node of --latency and predict its completion.")
final class TopologyPlanCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TreeInputOptions treeInput;

    @Option(names = "--algorithm", required = true, paramLabel = "ALG",
            description = "flat, binomial, mst, hlot, spt, ecef (model-driven) or auto (lowest predicted completion).")
    private String algorithm;

    @Mixin
    private CostOptionsMixin costOptions;

    @Option(names = "--json", description = "Print the plan as JSON.")
    private boolean json;

    @Option(names = "--svg", paramLabel = "FILE.svg",
            description = "Also draw the tree as an SVG: nodes by depth, each with its predicted arrival.")
    private Path svg;

    @Override
    public Integer call() throws Exception {
        return BadInput.run(spec, () -> {
            if (svg != null && PlotFile.problem("--svg", svg).isPresent()) {
                throw new IllegalArgumentException(PlotFile.problem("--svg", svg).get());
            }
            TreeAlgorithm method = TreeAlgorithm.parse(algorithm);
            CostModel cost = costOptions.costModel();
            TreeInputOptions.RootedInput rooted = treeInput.load();
            LatencyInput input = rooted.input();
            int rootIndex = rooted.root();
            Tree tree = method.builder().build(input.matrix(), rootIndex, cost).orElseThrow();
            JsonObject plan = TreePlanJson.of(method.configName(), tree, input.matrix(), cost);
            PrintWriter out = spec.commandLine().getOut();
            out.println(json ? plan.encodePrettily() : describe(plan));
            out.flush();
            if (svg != null) {
                Optional<String> failed = PlotFile.write("--svg", svg, picture(plan).render());
                if (failed.isPresent()) {
                    spec.commandLine().getErr().println("canopy topology plan: " + failed.get());
                    return 1;
                }
            }
            return BadInput.EXIT_OK;
        });
    }

    /** The tree of a plan in the JSON contract, titled with its completion and lower bound. */
    static TreeSvg picture(JsonObject plan) {
        List<TreeSvg.Edge> edges = new ArrayList<>();
        for (Object entry : plan.getJsonArray("edges")) {
            JsonObject edge = (JsonObject) entry;
            edges.add(new TreeSvg.Edge(edge.getString("parent"), edge.getString("child"), edge.getDouble("latency_ms")));
        }
        Map<String, Double> arrivals = new HashMap<>();
        plan.getJsonObject("arrival_ms").forEach(arrival -> arrivals.put(arrival.getKey(), ((Number) arrival.getValue()).doubleValue()));
        String title = String.format(Locale.ROOT, "%s tree from %s: predicted completion %.1f ms, lower bound %.1f ms",
                plan.getString("chosen_algorithm"), plan.getString("root"), plan.getDouble("predicted_completion_ms"),
                plan.getDouble("lower_bound_ms"));
        return new TreeSvg(title, plan.getString("root"), edges, arrivals);
    }

    private static String describe(JsonObject plan) {
        StringBuilder text = new StringBuilder(String.format("%s tree (%s) from %s over %d nodes: predicted completion %.3f ms, "
                        + "lower bound %.3f ms, flat %s%n", plan.getString("algorithm"), plan.getString("chosen_algorithm"),
                plan.getString("root"), plan.getInteger("nodes"), plan.getDouble("predicted_completion_ms"),
                plan.getDouble("lower_bound_ms"), plan.getValue("flat_completion_ms") == null ? "impossible (missing direct links)"
                        : String.format("%.3f ms", plan.getDouble("flat_completion_ms"))));
        TextTable table = TextTable.of(Column.text("parent"), Column.text("child"), Column.decimal("latency", "ms", 3),
                Column.decimal("arrives at", "ms", 3));
        for (Object edge : plan.getJsonArray("edges")) {
            JsonObject e = (JsonObject) edge;
            table.row(e.getString("parent"), e.getString("child"), e.getDouble("latency_ms"),
                    plan.getJsonObject("arrival_ms").getDouble(e.getString("child")));
        }
        text.append(table.render());
        return text.toString().stripTrailing();
    }
}
