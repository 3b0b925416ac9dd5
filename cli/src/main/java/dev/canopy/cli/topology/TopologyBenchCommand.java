package dev.canopy.cli.topology;

import dev.canopy.cli.bench.BenchOutput;
import dev.canopy.cli.table.Column;
import dev.canopy.cli.table.TextTable;
import dev.canopy.topology.internal.graph.LatencyCsvReader;
import dev.canopy.topology.internal.graph.LatencyGraph;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.hierarchy.Hierarchy;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.hierarchy.LevelThresholds;
import dev.canopy.topology.internal.synthetic.SyntheticGrid;
import dev.canopy.topology.internal.tree.CostModel;
import dev.canopy.topology.internal.tree.Tree;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code canopy bench topology}: how long planning takes. Each row is build + cost-model prediction of
 * one tree from node 0 (or one hierarchical plan), median of several runs after warm-up, all measured
 * side by side in one JVM. Inputs: the real 64-node PlanetLab matrix, a 1,000-node synthetic full
 * matrix, and 10,000 synthetic processes planned hierarchically (a full 10,000-node matrix would be
 * 10^8 entries; the hierarchy only ever needs coordinator matrices).
 */
@Command(name = "topology", mixinStandardHelpOptions = true, resourceBundle = BenchOutput.TEXTS,
        description = "Time tree building per algorithm for 64, 1,000 and 10,000 (hierarchical) nodes.")
public final class TopologyBenchCommand implements Callable<Integer> {

    static final SyntheticGrid.Shape THOUSAND = new SyntheticGrid.Shape(4, 5, 5, 2, 5);
    static final SyntheticGrid.Shape TEN_THOUSAND = new SyntheticGrid.Shape(8, 5, 5, 10, 5);
    private static final CostModel COST = new CostModel(0.01, 0, 8e-5, 1024);

    @Spec
    private CommandSpec spec;

    @Option(names = "--runs", defaultValue = "9", description = "Measured runs per row (default: ${DEFAULT-VALUE}).")
    private int runs;

    @Option(names = "--warmup", defaultValue = "5", description = "Warm-up runs per row (default: ${DEFAULT-VALUE}).")
    private int warmups;

    @Option(names = "--data", paramLabel = "DIR", description = "Directory of the shared latency CSVs (default: shared/latency above the working directory).")
    private Path data;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the synthetic grids (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Mixin
    private BenchOutput output;

    private double sink;

    /** One measured row of the table. */
    private record Row(String input, int nodes, String task, MedianTimer.Timing timing) {
    }

    @Override
    public Integer call() throws Exception {
        return BadInput.run(spec, () -> {
            MedianTimer timer = new MedianTimer(System::nanoTime, warmups, runs);
            Path directory = data != null ? data : findSharedLatency();
            List<Row> rows = new ArrayList<>();
            LatencyMatrix real = LatencyCsvReader.read(requireFile(directory.resolve("planetlab490_first64.csv"))).toMatrix();
            timeEveryAlgorithm(timer, "planetlab490_first64.csv", real, rows);

            LatencyGraph real426 = LatencyCsvReader.read(requireFile(directory.resolve("planetlab490_first426.csv")));
            LatencyMatrix matrix426 = real426.toMatrix();
            rows.add(new Row("planetlab490_first426.csv", 426, "derive levels (complete linkage)",
                    timer.time(() -> sink += Hierarchy.derive(matrix426, LevelThresholds.DEFAULTS).size())));
            timeEveryAlgorithm(timer, "planetlab490_first426.csv", matrix426, rows);

            SyntheticGrid thousand = SyntheticGrid.generate(seed, THOUSAND);
            LatencyMatrix synthetic = LatencyMatrix.of(thousand.nodes(), thousand.latencies());
            rows.add(new Row("synthetic full matrix", synthetic.size(), "load: latency graph + dense view",
                    timer.time(() -> sink += graphOf(synthetic).toMatrix().size())));
            timeEveryAlgorithm(timer, "synthetic full matrix", synthetic, rows);
            rows.add(new Row("synthetic full matrix", synthetic.size(), "derive levels (complete linkage)",
                    timer.time(() -> sink += Hierarchy.derive(synthetic, LevelThresholds.DEFAULTS).size())));

            SyntheticGrid tenThousand = SyntheticGrid.generate(seed, TEN_THOUSAND);
            Hierarchy hierarchy = tenThousand.hierarchy();
            String root = tenThousand.nodes().get(0);
            for (LevelAlgorithms algorithms : List.of(LevelAlgorithms.mpichGx(), LevelAlgorithms.everywhere(TreeAlgorithm.AUTO))) {
                HierarchicalPlanner planner = new HierarchicalPlanner(algorithms, COST);
                String task = algorithms.equals(LevelAlgorithms.mpichGx()) ? "hierarchical plan (hlot/flat/binomial)"
                        : "hierarchical plan (auto at every level)";
                rows.add(new Row("synthetic 8x5x5x10x5 grid", hierarchy.size(), task, timer.time(() ->
                        sink += planner.plan(hierarchy, tenThousand.latencies(), root, 1).orElseThrow().predictedCompletionMs())));
            }
            print(rows);
            return BadInput.EXIT_OK;
        });
    }

    private void timeEveryAlgorithm(MedianTimer timer, String input, LatencyMatrix matrix, List<Row> rows) {
        for (TreeAlgorithm algorithm : TreeAlgorithm.values()) {
            rows.add(new Row(input, matrix.size(), algorithm.configName(), timer.time(() -> {
                Tree tree = algorithm.builder().build(matrix, 0, COST).orElseThrow();
                sink += COST.predict(tree, matrix).completionMs();
            })));
        }
    }

    private static LatencyGraph graphOf(LatencyMatrix matrix) {
        LatencyGraph.Builder builder = LatencyGraph.builder();
        for (int a = 0; a < matrix.size(); a++) {
            for (int b = 0; b < matrix.size(); b++) {
                if (a != b) {
                    builder.addRtt(matrix.name(a), matrix.name(b), 2 * matrix.latency(a, b));
                }
            }
        }
        return builder.build();
    }

    private void print(List<Row> rows) {
        PrintWriter out = spec.commandLine().getOut();
        if (output.json()) {
            JsonArray array = new JsonArray();
            rows.forEach(row -> array.add(new JsonObject().put("input", row.input()).put("nodes", row.nodes())
                    .put("task", row.task()).put("median_ms", row.timing().medianMs()).put("min_ms", row.timing().minMs())
                    .put("runs", row.timing().runs())));
            out.println(new JsonObject().put("machine", machine()).put("rows", array).encodePrettily());
        } else {
            out.printf("canopy bench topology, %s; %d warm-up + %d measured runs per row, median%n", machine(), warmups, runs);
            out.printf("cost model: o = %.2f ms, m = %d B, G = %.0e ms/B (100 Mbit/s)%n%n", COST.overheadMs(),
                    COST.messageBytes(), COST.perByteMs());
            TextTable table = TextTable.of(Column.text("input"), Column.integer("nodes", null), Column.text("task"),
                    Column.decimal("median", "ms", 3), Column.decimal("min", "ms", 3));
            rows.forEach(row -> table.row(row.input(), row.nodes(), row.task(), row.timing().medianMs(),
                    row.timing().minMs()));
            out.print(table.render());
        }
        out.flush();
    }

    private static String machine() {
        String cpu = "unknown CPU";
        String load = "unknown";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).strip()).findFirst().orElse(cpu);
            load = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException | SecurityException e) {
            // not Linux: CPU and load stay unknown
        }
        return String.format("%s, %d cores (%s), load average %s, Java %s (%s)", Instant.now().truncatedTo(ChronoUnit.SECONDS),
                Runtime.getRuntime().availableProcessors(), cpu, load, System.getProperty("java.version"),
                System.getProperty("java.vm.name"));
    }

    private static Path requireFile(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(file + " not found; pass --data DIR with the shared latency CSVs");
        }
        return file;
    }

    private static Path findSharedLatency() {
        for (Path at = Path.of("").toAbsolutePath(); at != null; at = at.getParent()) {
            if (Files.isDirectory(at.resolve("shared/latency"))) {
                return at.resolve("shared/latency");
            }
        }
        throw new IllegalArgumentException("shared/latency not found above " + Path.of("").toAbsolutePath()
                + "; pass --data DIR with the shared latency CSVs");
    }
}
