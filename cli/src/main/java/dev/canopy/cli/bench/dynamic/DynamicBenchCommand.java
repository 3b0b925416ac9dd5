package dev.canopy.cli.bench.dynamic;

import dev.canopy.cli.LevelFiles;
import dev.canopy.cli.bench.BenchOutput;
import dev.canopy.cli.bench.MachineInfo;
import dev.canopy.cli.table.Column;
import dev.canopy.cli.table.TextTable;
import dev.canopy.dynamic.InterPhase;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code canopy bench dynamic}: spawn latency (cold JVMs and warm pools) for parent x child group sizes, spawn
 * rate, merge latency, inter- vs intra-group point-to-point, and inter-communicator collectives with the
 * topology-aware vs the flat inter phase on the emulated grid (default: the bundled 8-site grid). {@code --quick}
 * runs a reduced set of shapes; {@code --json} prints the contract.
 */
@Command(name = "dynamic", mixinStandardHelpOptions = true, resourceBundle = BenchOutput.TEXTS,
        description = "Spawn, merge and inter-communicator benchmarks on the emulated grid.")
public final class DynamicBenchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--config", description = "The level file (RSL); default: the bundled 8-site grid.")
    private Path config;

    @Option(names = "--quick", description = "A reduced set of shapes and runs (a few minutes on an idle machine).")
    private boolean quick;

    @Option(names = "--intercomm-only", description = "Only the inter-communicator collectives, topology-aware vs flat"
            + " (no spawn, merge or point-to-point).")
    private boolean intercommOnly;

    @Option(names = "--intercomm-apart", description = "Inter-communicator collectives with the parents at the first half"
            + " of the sites and the children at the others (default: both groups at every site).")
    private boolean apart;

    @Option(names = "--shapes", split = ",", paramLabel = "PxC",
            description = "The spawn shapes, parents x children (e.g. 1x1,2x2,4x4); default: the plan's.")
    private List<String> shapes;

    @Option(names = "--runs", description = "Spawns per shape and mode (default: 20, 3 with --quick).")
    private Integer runs;

    @Option(names = "--warmup", paramLabel = "N", description = "Untimed spawns per shape and mode before the timed ones"
            + " (default: 2, as Open MPI's bench/openmpi-dynamic/run.sh does before its timed MPI_Comm_spawn calls; 1 with"
            + " --quick, as its --quick).")
    private Integer warmup;

    @Option(names = "--spawn-only", description = "Only the spawn latency and rate (no merge, point-to-point or"
            + " inter-communicator collectives); a one-site level file is then enough.")
    private boolean spawnOnly;

    @Option(names = "--merge-only", description = "Only the merge latency beside an allgather of the merged group"
            + " (no spawn, point-to-point or inter-communicator collectives).")
    private boolean mergeOnly;

    @Option(names = "--warm-only", description = "Spawn from warm pools only (no cold JVMs: on a loaded machine a cold"
            + " spawn takes seconds to minutes).")
    private boolean warmOnly;

    @Mixin
    private BenchOutput output;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        GridModel grid;
        if (config == null) {
            grid = GridConfigs.defaultGrid();
        } else {
            Optional<GridModel> loaded = LevelFiles.load(config, "bench dynamic", err);
            if (loaded.isEmpty()) {
                return BenchOutput.EXIT_BAD_INPUT;
            }
            grid = loaded.get();
        }
        if (grid.sites().stream().anyMatch(site -> site.processCount() < 2) || grid.sites().size() < (spawnOnly ? 1 : 2)) {
            return output.refuse("the grid needs at least " + (spawnOnly ? "1 site" : "2 sites") + " with 2 processes each"
                    + " (parents and children share every site); " + grid.name() + " has " + grid.sites().size() + " sites");
        }
        if ((spawnOnly ? 1 : 0) + (intercommOnly ? 1 : 0) + (mergeOnly ? 1 : 0) > 1) {
            return output.refuse("--spawn-only, --intercomm-only and --merge-only exclude each other: give one of them");
        }
        if (warmOnly && (intercommOnly || mergeOnly)) {
            return output.refuse("--warm-only chooses the spawns' mode; --intercomm-only and --merge-only measure no spawn");
        }
        Plan plan = quick ? Plan.QUICK : Plan.FULL;
        List<int[]> spawnShapes;
        try {
            spawnShapes = shapes == null ? plan.shapes() : shapes.stream().map(DynamicBenchCommand::shape).toList();
        } catch (IllegalArgumentException e) {
            return output.refuse(e.getMessage());
        }
        if (runs != null && runs < 1) {
            return output.refuse("--runs " + runs + " is not a positive number of spawns");
        }
        if (warmup != null && warmup < 0) {
            return output.refuse("--warmup " + warmup + " is not a number of untimed spawns: give 0 or more");
        }
        // Progress goes to stderr with --json, so standard output is the JSON alone.
        PrintWriter progress = output.json() ? err : spec.commandLine().getOut();
        List<SpawnBench.Latency> spawns = new ArrayList<>();
        List<SpawnBench.Rate> rates = new ArrayList<>();
        List<InterBench.Merge> merges = new ArrayList<>();
        List<InterBench.P2p> p2p = new ArrayList<>();
        List<InterBench.Collective> collectives = new ArrayList<>();
        if (!intercommOnly && !mergeOnly) {
            SpawnBench.Counts counts = new SpawnBench.Counts(warmup == null ? plan.spawnWarmUps() : warmup,
                    runs == null ? plan.runs() : runs, plan.rateSpawns());
            new SpawnBench(grid, progress).run(spawnShapes, warmOnly ? List.of(SpawnBench.Mode.WARM)
                    : List.of(SpawnBench.Mode.values()), counts, spawns, rates);
        }
        if (!spawnOnly) {
            InterBench inter = new InterBench(grid, progress);
            if (!intercommOnly) {
                for (int perSite : plan.mergePerSite()) {
                    merges.add(inter.merge(perSite, plan.mergeIterations()));
                }
            }
            if (!intercommOnly && !mergeOnly) {
                p2p.addAll(inter.pointToPoint(plan.p2pSizes(), plan.p2pRounds()));
            }
            if (!mergeOnly) {
                collectives.addAll(inter.collectives(apart ? inter.groupsApart() : inter.groupsAt(plan.collectivePerSite()),
                        plan.collectiveSizes(), plan.collectiveWarmUps(), plan.collectiveRepetitions()));
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (output.json()) {
            out.println(toJson(spawns, rates, merges, p2p, collectives).encodePrettily());
        } else {
            printTables(out, grid, spawns, rates, merges, p2p, collectives);
        }
        out.flush();
        return 0;
    }

    /** {@code PxC}: parents x children, each 1 to 16. */
    private static int[] shape(String text) {
        String[] parts = text.strip().toLowerCase(Locale.ROOT).split("x", -1);
        try {
            int[] shape = {Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip())};
            if (parts.length == 2 && shape[0] >= 1 && shape[0] <= 16 && shape[1] >= 1 && shape[1] <= 16) {
                return shape;
            }
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            // the message below
        }
        throw new IllegalArgumentException("--shapes: '" + text + "' is not PxC with parents and children from 1 to 16"
                + " (e.g. --shapes 1x1,2x2,4x4)");
    }

    /** What one run measures. */
    private record Plan(List<int[]> shapes, int spawnWarmUps, int runs, int rateSpawns, List<Integer> mergePerSite, int mergeIterations,
            List<Integer> p2pSizes, int p2pRounds, int collectivePerSite, List<Integer> collectiveSizes,
            int collectiveWarmUps, int collectiveRepetitions) {

        static final Plan QUICK = new Plan(List.of(new int[] {1, 1}, new int[] {2, 2}), 1, 3, 3, List.of(1), 5,
                List.of(8, 65536), 50, 2, List.of(8, 524288), 2, 5);
        static final Plan FULL = new Plan(shapes(List.of(1, 2, 4, 8, 16)), 2, 20, 20, List.of(1, 2), 20,
                List.of(8, 1024, 65536, 524288), 200, 2, List.of(8, 1024, 65536, 524288), 3, 15);

        private static List<int[]> shapes(List<Integer> sizes) {
            List<int[]> shapes = new ArrayList<>();
            sizes.forEach(parents -> sizes.forEach(children -> shapes.add(new int[] {parents, children})));
            return shapes;
        }
    }

    static JsonObject toJson(List<SpawnBench.Latency> spawns, List<SpawnBench.Rate> rates, List<InterBench.Merge> merges,
            List<InterBench.P2p> p2p, List<InterBench.Collective> collectives) {
        JsonArray spawn = new JsonArray();
        spawns.forEach(row -> spawn.add(new JsonObject().put("parents", row.parents()).put("children", row.children())
                .put("mode", row.mode().json()).put("mean_ms", row.meanMs())));
        // Beyond the contract: how many spawns each mean took after how many untimed ones, and where each
        // shape's spawn time went at the parent root.
        JsonArray phases = new JsonArray();
        spawns.forEach(row -> phases.add(new JsonObject().put("parents", row.parents()).put("children", row.children())
                .put("mode", row.mode().json()).put("warmup", row.warmUps()).put("runs", row.runs())
                .put("phases_ms", row.phases().phasesJson())));
        JsonArray rate = new JsonArray();
        rates.forEach(row -> rate.add(new JsonObject().put("mode", row.mode().json()).put("spawns_per_s", row.spawnsPerSecond())));
        JsonArray merge = new JsonArray();
        merges.forEach(row -> merge.add(new JsonObject().put("size", row.size()).put("mean_ms", row.meanMs())));
        JsonArray points = new JsonArray();
        p2p.forEach(row -> points.add(new JsonObject().put("kind", row.kind()).put("bytes", row.bytes())
                .put("median_us", row.medianUs())));
        JsonArray inter = new JsonArray();
        collectives.forEach(row -> inter.add(new JsonObject().put("op", row.op()).put("bytes", row.bytes())
                .put("inter_phase", row.phase().name().toLowerCase(Locale.ROOT)).put("min_ms", row.minMs())
                .put("avg_ms", row.avgMs()).put("max_ms", row.maxMs())));
        return new JsonObject().put("spawn", spawn).put("spawn_phases", phases).put("spawn_rate", rate).put("merge", merge).put("p2p", points)
                .put("intercomm", inter);
    }

    private static double meanSpawn(List<SpawnBench.Latency> spawns, List<Integer> shape, SpawnBench.Mode mode) {
        return spawns.stream().filter(row -> row.mode() == mode && row.parents() == shape.get(0)
                && row.children() == shape.get(1)).mapToDouble(SpawnBench.Latency::meanMs).findFirst().orElse(Double.NaN);
    }

    private static void printTables(PrintWriter out, GridModel grid, List<SpawnBench.Latency> spawns,
            List<SpawnBench.Rate> rates, List<InterBench.Merge> merges, List<InterBench.P2p> p2p,
            List<InterBench.Collective> collectives) {
        out.println("canopy bench dynamic on " + grid.name() + "; " + MachineInfo.current());
        out.println();
        if (!spawns.isEmpty()) { // --intercomm-only measures none of these
            TextTable spawn = TextTable.of(Column.integer("parents", null), Column.integer("children", null),
                    Column.decimal("cold spawn", "ms", 0), Column.decimal("warm spawn", "ms", 0), Column.decimal("warm/cold", null, 2));
            // One row per shape; a mode not measured (--warm-only) is NaN.
            spawns.stream().map(row -> List.of(row.parents(), row.children())).distinct().forEach(shape -> {
                double cold = meanSpawn(spawns, shape, SpawnBench.Mode.COLD);
                double warm = meanSpawn(spawns, shape, SpawnBench.Mode.WARM);
                spawn.row(shape.get(0), shape.get(1), cold, warm, warm / cold);
            });
            out.print(spawn.render());
            SpawnBench.Latency first = spawns.get(0);
            out.printf(Locale.ROOT, "means of %d spawns per shape at the parent root, after %d untimed ones (--warmup)%n",
                    first.runs(), first.warmUps());
            out.println();
            rates.forEach(rate -> out.printf(Locale.ROOT, "spawn rate (%s, 1 parent x 1 child, back to back): %.2f spawns/s%n",
                    rate.mode().json(), rate.spawnsPerSecond()));
            out.println();
        }
        if (!merges.isEmpty()) {
            TextTable merge = TextTable.of(Column.integer("merged size", null), Column.decimal("merge", "ms", 1),
                    Column.decimal("allgather of the merged group", "ms", 1), Column.decimal("merge/allgather", null, 2));
            merges.forEach(row -> merge.row(row.size(), row.meanMs(), row.allgatherMs(), row.meanMs() / row.allgatherMs()));
            out.print(merge.render());
            out.println();
        }
        if (!p2p.isEmpty()) {
            TextTable roundTrips = TextTable.of(Column.integer("bytes", null), Column.decimal("intra round trip", "us", 0),
                    Column.decimal("inter round trip", "us", 0), Column.decimal("inter/intra", null, 2));
            for (InterBench.P2p intra : p2p.stream().filter(row -> row.kind().equals("intra")).toList()) {
                double inter = p2p.stream().filter(row -> row.kind().equals("inter") && row.bytes() == intra.bytes())
                        .mapToDouble(InterBench.P2p::medianUs).findFirst().orElse(Double.NaN);
                roundTrips.row(intra.bytes(), intra.medianUs(), inter, inter / intra.medianUs());
            }
            out.print(roundTrips.render());
            out.println();
        }
        if (collectives.isEmpty()) { // --spawn-only and --merge-only measure none
            return;
        }
        TextTable inter = TextTable.of(Column.text("op"), Column.integer("bytes", null),
                Column.decimal("topology min", "ms", 1), Column.decimal("topology avg", "ms", 1),
                Column.decimal("topology max", "ms", 1), Column.decimal("flat min", "ms", 1),
                Column.decimal("flat avg", "ms", 1), Column.decimal("flat max", "ms", 1),
                Column.decimal("topology/flat (avg)", null, 2), Column.decimal("topology/flat (max)", null, 2));
        for (InterBench.Collective topology : collectives.stream().filter(row -> row.phase() == InterPhase.TOPOLOGY).toList()) {
            collectives.stream().filter(row -> row.phase() == InterPhase.FLAT && row.op().equals(topology.op())
                    && row.bytes() == topology.bytes()).findFirst().ifPresent(flat -> inter.row(topology.op(),
                    topology.bytes(), topology.minMs(), topology.avgMs(), topology.maxMs(), flat.minMs(), flat.avgMs(),
                    flat.maxMs(), topology.avgMs() / flat.avgMs(), topology.maxMs() / flat.maxMs()));
        }
        out.print(inter.render());
    }
}
