package dev.canopy.cli.topology;

import dev.canopy.topology.tree.CostModel;
import dev.canopy.topology.tree.Tree;
import dev.canopy.topology.tree.TreeAlgorithm;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
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

    @Override
    public Integer call() throws Exception {
        return BadInput.run(spec, () -> {
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
            return BadInput.EXIT_OK;
        });
    }

    private static String describe(JsonObject plan) {
        StringBuilder text = new StringBuilder(String.format("%s tree (%s) from %s over %d nodes: predicted completion %.3f ms, "
                        + "lower bound %.3f ms, flat %s%n", plan.getString("algorithm"), plan.getString("chosen_algorithm"),
                plan.getString("root"), plan.getInteger("nodes"), plan.getDouble("predicted_completion_ms"),
                plan.getDouble("lower_bound_ms"), plan.getValue("flat_completion_ms") == null ? "impossible (missing direct links)"
                        : String.format("%.3f ms", plan.getDouble("flat_completion_ms"))));
        for (Object edge : plan.getJsonArray("edges")) {
            JsonObject e = (JsonObject) edge;
            text.append(String.format("  %s -> %s  %.3f ms, arrives at %.3f ms%n", e.getString("parent"), e.getString("child"),
                    e.getDouble("latency_ms"), plan.getJsonObject("arrival_ms").getDouble(e.getString("child"))));
        }
        return text.toString().stripTrailing();
    }
}
