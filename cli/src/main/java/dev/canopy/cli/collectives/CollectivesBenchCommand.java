package dev.canopy.cli.collectives;

import dev.canopy.cli.LevelFiles;
import dev.canopy.cli.bench.BenchOutput;
import dev.canopy.cli.bench.PlotOption;
import dev.canopy.cli.plot.BenchPlots;
import dev.canopy.collectives.AllToAllRoute;
import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.calibration.LogGpCalibration;
import dev.canopy.collectives.internal.calibration.LogGpStore;
import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.collectives.internal.segmentation.PipelineSegmenter;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.collectives.plan.TopologyPlan;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.comm.Communicator;
import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.LogGpParameters;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Instant;
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
 * {@code canopy bench collectives}: runs the level file's grid in this JVM (real nodes, embedded
 * ZooKeeper, the file's WAN emulated) and times one operation for each heavy-WAN algorithm and
 * message size; the other levels keep the file's choice. All algorithms run in one session, side by
 * side, so their ratios are meaningful on a noisy machine. alltoall(v) can also run on several
 * routes ({@code --exchange}), and bcast and reductions with and without pipelining
 * ({@code --pipeline}); the variants' iterations alternate so that the machine's drift hits each alike.
 * Every algorithm is planned for each message size with the file's uplinks and link bandwidths, so
 * {@code auto} may choose another tree per size; the prediction beside each measurement is the
 * topology's cost model replaying that plan ({@link GridTimes}).
 */
@Command(name = "collectives", mixinStandardHelpOptions = true, resourceBundle = BenchOutput.TEXTS,
        description = "Time a collective on the level file's emulated grid for each heavy-WAN algorithm and size.")
public final class CollectivesBenchCommand implements Callable<Integer> {

    private static final int LOGGP_REPETITIONS = 7;

    @Spec
    private CommandSpec spec;

    @Option(names = "--config", required = true, description = "The level file (RSL).")
    private Path config;

    @Option(names = "--op", defaultValue = "bcast", description = "The operation, e.g. bcast, allreduce (default ${DEFAULT-VALUE}).")
    private String op;

    @Option(names = "--sizes", defaultValue = "2,1024,65536,1048576", split = ",", description = "Message sizes in bytes.")
    private List<Integer> sizes;

    @Option(names = "--algorithms", defaultValue = "flat,binomial,mst,hlot,spt,auto", split = ",",
            description = "Heavy-WAN tree methods to compare.")
    private List<String> algorithms;

    @Option(names = "--exchange", defaultValue = "auto", split = ",",
            description = "alltoall(v) routes to compare: relayed (through the site coordinators, along the fastest"
                    + " paths between them), sites (through the site coordinators, each straight to every other),"
                    + " pairwise, auto (default ${DEFAULT-VALUE}: relayed when the grid has several sites).")
    private List<String> exchanges;

    @Option(names = "--pipeline", split = ",",
            description = "Pipelining of bcast and reductions to compare: on (segments sized by the cost model),"
                    + " off (every message in one piece) (default: on).")
    private List<String> pipelines;

    @Option(names = "--loggp", defaultValue = "measure", paramLabel = "measure|defaults",
            description = "LogGP parameters of plans and predictions: measure (default: on this grid before the runs,"
                    + " as canopy calibrate does) or defaults (20 µs per send, latencies inside sites from the thresholds).")
    private String loggpSource;

    @Option(names = "--shared-cores", defaultValue = "0", paramLabel = "N",
            description = "Predict with every node's sends and receives sharing N cores (this JVM runs them all;"
                    + " default 0: each node its own CPU). The bound uses the measured o and G, which a loaded"
                    + " machine inflates: use it on a quiet machine.")
    private int sharedCores;

    @Option(names = "--iterations", defaultValue = "15", description = "Timed runs per algorithm and size.")
    private int iterations;

    @Option(names = "--warmup", defaultValue = "3",
            description = "Untimed runs per variant and size before the timed ones (JIT, connections; default ${DEFAULT-VALUE}).")
    private int warmup;

    @Option(names = "--root", description = "Root rank (default: the first rank of the first site).")
    private Integer root;

    @Option(names = "--root-site", description = "Root: the first rank of this site.")
    private String rootSite;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the emulated jitter and loss.")
    private long seed;

    @Mixin
    private BenchOutput output;

    @Mixin
    private PlotOption plot;

    @Override
    public Integer call() throws Exception {
        return output.unlessInvalid(validate(), this::run);
    }

    private int run() {
        Optional<GridModel> loaded = LevelFiles.load(config, "bench collectives", spec.commandLine().getErr());
        if (loaded.isEmpty()) {
            return BenchOutput.EXIT_BAD_INPUT;
        }
        GridModel grid = loaded.get();
        Operation operation = Operation.valueOf(op.toUpperCase(Locale.ROOT));
        List<TreeAlgorithm> heavyWan = algorithms.stream().map(name -> TreeAlgorithm.fromConfigName(name).orElseThrow()).toList();
        List<Variant> variants = variants();
        try (EmulatedGrid emulated = EmulatedGrid.start(grid, "bench-" + ProcessHandle.current().pid(), seed)) {
            List<Communicator> world = emulated.world();
            int rootRank = rootRank(world);
            if (rootRank < 0) {
                return output.refuse(describeRootProblem(grid, world.size()));
            }
            JsonObject report = run(grid, world, operation, heavyWan, variants, rootRank);
            output.print(report, () -> BenchTable.format(report));
            return plot.draw(() -> BenchPlots.collectives(report).render());
        }
    }

    private JsonObject run(GridModel grid, List<Communicator> world, Operation operation, List<TreeAlgorithm> heavyWan,
            List<Variant> variants, int rootRank) {
        LogGpParameters loggp = loggp(world);
        List<Collectives> base = world.stream()
                .map(member -> new Collectives(member, ConfiguredPlans.of(member.members(), grid), CollectiveSettings.defaults()))
                .toList();
        GridTimes model = new GridTimes(grid, world.get(0).members(), loggp, sharedCores);
        JsonArray results = new JsonArray();
        for (TreeAlgorithm algorithm : heavyWan) {
            LevelAlgorithms levels = LevelChoices.of(grid.levels()).with(Level.HEAVY_WAN, algorithm);
            for (int bytes : sizes) {
                // Planned for this size, so auto weighs fan-out against the file's uplinks; every member knows it.
                List<Collectives> members = new ArrayList<>();
                for (Collectives member : base) {
                    members.add(member.withPlan(ConfiguredPlans.of(member.communicator().members(), grid, levels, bytes,
                            loggp)));
                }
                // The model's own copy: the members' plans belong to their event loops.
                TopologyPlan plan = ConfiguredPlans.of(world.get(0).members(), grid, levels, bytes, loggp);
                List<double[]> millis = timeVariants(operation, members, variants, bytes, rootRank);
                for (int v = 0; v < variants.size(); v++) {
                    LatencySummary summary = LatencySummary.of(millis.get(v));
                    JsonObject row = new JsonObject().put("algorithm", algorithm.configName());
                    if (routed(operation)) {
                        row.put("exchange", variants.get(v).route().name().toLowerCase(Locale.ROOT));
                    }
                    if (pipelines != null) {
                        row.put("pipeline", variants.get(v).pipelined() ? "on" : "off");
                    }
                    results.add(row
                            .put("bytes", bytes)
                            .put("median_ms", round(summary.medianMs()))
                            .put("p90_ms", round(summary.p90Ms()))
                            .put("predicted_ms", round(model.predictedMs(plan, rootRank,
                                    variants.get(v).settings().pipeline(), bytes)))
                            .put("lower_bound_ms", round(model.lowerBoundMs(rootRank, bytes))));
                }
            }
        }
        return new JsonObject()
                .put("op", operation.displayName())
                .put("config", config.toString())
                .put("processes", world.size())
                .put("root", rootRank)
                .put("root_site", world.get(0).member(rootRank).coordinates().site())
                .put("iterations", iterations)
                .put("loggp", LogGpStore.toJson(loggp).put("source", loggpSource))
                .put("shared_cores", sharedCores)
                .put("date", Instant.now().toString())
                .put("results", results);
    }

    /** The LogGP parameters to plan and predict with: measured on this run's grid, unless --loggp defaults. */
    private LogGpParameters loggp(List<Communicator> world) {
        if (loggpSource.equals("defaults") || world.size() < 2) {
            return LogGpParameters.DEFAULTS;
        }
        return LogGpCalibration.run(world, LOGGP_REPETITIONS).parameters();
    }

    /** One way of running the operation that the run compares: an alltoall route and pipelining on or off. */
    private record Variant(AllToAllRoute route, boolean pipelined) {
        CollectiveSettings settings() {
            CollectiveSettings settings = CollectiveSettings.defaults().withAllToAllRoute(route);
            return pipelined ? settings : settings.withPipeline(PipelineSegmenter.wholeMessages());
        }
    }

    private List<Variant> variants() {
        List<Variant> variants = new ArrayList<>();
        for (String exchange : exchanges) {
            for (String pipeline : pipelines == null ? List.of("on") : pipelines) {
                variants.add(new Variant(routeNamed(exchange).orElseThrow(), pipeline.equalsIgnoreCase("on")));
            }
        }
        return variants;
    }

    /**
     * The times of {@code iterations} runs of each variant, the variants taking turns in every
     * iteration, after {@code --warmup} untimed runs each (connections, JIT), so load on the machine hits them alike.
     */
    private List<double[]> timeVariants(Operation operation, List<Collectives> members, List<Variant> variants, int bytes,
            int rootRank) {
        List<List<Collectives>> configured = new ArrayList<>();
        for (Variant variant : variants) {
            CollectiveSettings settings = variant.settings();
            configured.add(members.stream().map(member -> member.withSettings(settings)).toList());
        }
        List<double[]> millis = new ArrayList<>();
        for (int w = 0; w < warmup; w++) {
            for (List<Collectives> onVariant : configured) {
                time(operation, onVariant, bytes, rootRank);
            }
        }
        for (int v = 0; v < configured.size(); v++) {
            millis.add(new double[iterations]);
        }
        for (int i = 0; i < iterations; i++) {
            for (int v = 0; v < configured.size(); v++) {
                millis.get(v)[i] = time(operation, configured.get(v), bytes, rootRank);
            }
        }
        return millis;
    }

    private static boolean pipelinedOperation(Operation operation) {
        return switch (operation) {
            case BCAST, REDUCE, ALLREDUCE, REDUCE_SCATTER -> true;
            default -> false;
        };
    }

    private static boolean routed(Operation operation) {
        return operation == Operation.ALLTOALL || operation == Operation.ALLTOALLV;
    }

    private static Optional<AllToAllRoute> routeNamed(String name) {
        for (AllToAllRoute route : AllToAllRoute.values()) {
            if (route.name().equalsIgnoreCase(name)) {
                return Optional.of(route);
            }
        }
        return Optional.empty();
    }

    /** Starts every non-root member, then the root, and waits until all completed: the completion time. */
    private static double time(Operation operation, List<Collectives> members, int bytes, int rootRank) {
        List<Future<?>> calls = new ArrayList<>();
        for (Collectives member : members) {
            if (member.rank() != rootRank) {
                calls.add(BenchCall.start(operation, member, bytes, rootRank));
            }
        }
        long start = System.nanoTime();
        calls.add(BenchCall.start(operation, members.get(rootRank), bytes, rootRank));
        Blocking.await(Future.all(calls));
        return (System.nanoTime() - start) / 1e6;
    }

    private int rootRank(List<Communicator> world) {
        if (root != null) {
            return root < world.size() ? root : -1;
        }
        for (int rank = 0; rank < world.size(); rank++) {
            if (rootSite == null || world.get(0).member(rank).coordinates().site().equals(rootSite)) {
                return rank;
            }
        }
        return -1;
    }

    private String describeRootProblem(GridModel grid, int size) {
        return root != null ? "--root " + root + " is not a rank of the " + size + " processes (0 to " + (size - 1) + ")"
                : "--root-site " + rootSite + " is not a site of the grid; sites are "
                        + grid.sites().stream().map(site -> site.name()).toList();
    }

    private Optional<String> validate() {
        if (root != null && rootSite != null) {
            return Optional.of("give --root or --root-site, not both");
        }
        if (!loggpSource.equals("measure") && !loggpSource.equals("defaults")) {
            return Optional.of("--loggp must be measure or defaults, got '" + loggpSource + "'");
        }
        if (root != null && root < 0) {
            return Optional.of("--root must be a rank (0 or more), got " + root);
        }
        if (sharedCores < 0) {
            return Optional.of("--shared-cores must be 0 (each node its own CPU) or more, got " + sharedCores);
        }
        if (warmup < 0) {
            return Optional.of("--warmup must be 0 or more, got " + warmup);
        }
        if (iterations < 1) {
            return Optional.of("--iterations must be at least 1, got " + iterations);
        }
        if (plot.problem().isPresent()) {
            return plot.problem();
        }
        for (int size : sizes) {
            if (size < 0 || size > 64 << 20) {
                return Optional.of("--sizes entries must be 0 to 67108864 bytes, got " + size);
            }
        }
        for (String name : algorithms) {
            if (TreeAlgorithm.fromConfigName(name).isEmpty()) {
                return Optional.of("unknown algorithm '" + name + "'; choose from " + TreeAlgorithm.names());
            }
        }
        Operation operation;
        try {
            operation = Operation.valueOf(op.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return Optional.of("unknown operation '" + op + "'; choose from "
                    + java.util.Arrays.stream(Operation.values()).map(Operation::displayName).toList());
        }
        return validateExchanges(operation).or(() -> validatePipelines(operation));
    }

    private Optional<String> validatePipelines(Operation operation) {
        if (pipelines == null) {
            return Optional.empty();
        }
        for (String name : pipelines) {
            if (!name.equalsIgnoreCase("on") && !name.equalsIgnoreCase("off")) {
                return Optional.of("unknown pipeline setting '" + name + "'; choose from [on, off]");
            }
        }
        if (pipelines.stream().map(name -> name.toLowerCase(Locale.ROOT)).distinct().count() < pipelines.size()) {
            return Optional.of("--pipeline names a setting twice: " + pipelines);
        }
        if (!pipelinedOperation(operation)) {
            return Optional.of("--pipeline applies to bcast, reduce, allreduce and reduce_scatter, not "
                    + operation.displayName());
        }
        return Optional.empty();
    }

    private Optional<String> validateExchanges(Operation operation) {
        for (String name : exchanges) {
            if (routeNamed(name).isEmpty()) {
                return Optional.of("unknown exchange '" + name + "'; choose from "
                        + java.util.Arrays.stream(AllToAllRoute.values()).map(r -> r.name().toLowerCase(Locale.ROOT)).toList());
            }
        }
        List<AllToAllRoute> routes = exchanges.stream().map(name -> routeNamed(name).orElseThrow()).toList();
        if (routes.stream().distinct().count() < routes.size()) {
            return Optional.of("--exchange names a route twice: " + exchanges);
        }
        if (!routed(operation) && !routes.equals(List.of(AllToAllRoute.AUTO))) {
            return Optional.of("--exchange applies to alltoall and alltoallv only, not " + operation.displayName());
        }
        return Optional.empty();
    }

    private static double round(double millis) {
        return Math.round(millis * 1000) / 1000.0;
    }
}
