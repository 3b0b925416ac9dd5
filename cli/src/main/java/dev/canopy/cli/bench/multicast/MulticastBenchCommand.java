package dev.canopy.cli.bench.multicast;

import dev.canopy.cli.bench.BenchOutput;
import dev.canopy.cli.bench.PlotOption;
import dev.canopy.cli.bench.TimeoutOption;
import dev.canopy.cli.bench.namespaces.NamespaceSupport;
import dev.canopy.cli.plot.BenchPlots;
import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.multicast.BroadcastLayer;
import dev.canopy.collectives.internal.multicast.BroadcastLayers;
import dev.canopy.collectives.internal.multicast.MulticastFabrics;
import dev.canopy.collectives.internal.segmentation.PipelineSegmenter;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.emulation.ThreadDelayScheduler;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.fabric.udp.UdpFabricOptions;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code canopy bench multicast}: in one run, bcast by multicast (the collectives' multicast layer over
 * the reliable substrate) and by Canopy's point-to-point binomial tree, whole and pipelined, over the same
 * members, root rank 0. The methods take turns within each size, so the machine's drift hits them alike.
 * {@code --fabric emulated-ud}: real nodes in this JVM (embedded ZooKeeper, TCP on 127.0.0.1), multicast on
 * the emulated InfiniBand UD fabric. {@code --fabric udp}: one JVM per member, each in a network namespace of
 * its own, multicast over real IP multicast ({@link NamespaceBench}); without root (or where namespaces cannot
 * be created) it says why in {@code fallback} and runs as {@code emulated-ud}.
 */
@Command(name = "multicast", mixinStandardHelpOptions = true, resourceBundle = BenchOutput.TEXTS,
        description = "Compare bcast by reliable multicast with the point-to-point binomial and pipelined trees.")
public final class MulticastBenchCommand implements Callable<Integer> {

    @Mixin
    private BenchOutput output;

    @Mixin
    private PlotOption plot;

    @Mixin
    private TimeoutOption timeout = new TimeoutOption(1200);

    @Spec
    private CommandSpec spec;

    @Option(names = "--members", defaultValue = "8", description = "Members (default ${DEFAULT-VALUE}).")
    private int members;

    @Option(names = "--sizes", defaultValue = "8,1024,65536,1048576", split = ",", description = "Message sizes in bytes.")
    private List<Integer> sizes;

    @Option(names = "--fabric", defaultValue = "emulated-ud", description = "udp or emulated-ud (default ${DEFAULT-VALUE}).")
    private String fabric;

    @Option(names = "--loss", defaultValue = "0", description = "emulated-ud: loss per receiver copy, 0 to <1.")
    private double loss;

    @Option(names = "--skew-us", defaultValue = "0", description = "Receivers start each timed bcast up to this many us late (random, seeded).")
    private long skewMicros;

    @Option(names = "--iterations", defaultValue = "30", description = "Timed single bcasts per method and size.")
    private int iterations;

    @Option(names = "--warmup", defaultValue = "20", description = "Untimed bcasts per method and size first.")
    private int warmup;

    @Option(names = "--back-to-back", defaultValue = "400",
            description = "Most bcasts in the back-to-back run (fewer for large sizes: at most 16 MiB in all).")
    private int backToBack;

    @Option(names = "--rounds", defaultValue = "5",
            description = "Back-to-back runs per method and size, the methods taking turns; the median is reported"
                    + " (one JVM; --fabric udp runs one).")
    private int rounds;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the fabric's loss and of the skew.")
    private long seed;

    @Option(names = "--sub-group", defaultValue = "0",
            description = "Sub-group size of the multicast substrate (root or co-root and its leaves); 0: the latency model's.")
    private int subGroupSize;

    @Option(names = "--window", defaultValue = "64",
            description = "Multicast window in MTU buffers (small packets share them), at the root and each co-root"
                    + " (default ${DEFAULT-VALUE}).")
    private int window;

    @Option(names = "--credits", defaultValue = "32",
            description = "Receive buffers each member posts per root (default ${DEFAULT-VALUE}).")
    private int credits;

    @Option(names = "--mtu", defaultValue = "" + UdpFabricOptions.MAX_MTU,
            description = "udp: the largest datagram, 64 to 65507 bytes (default ${DEFAULT-VALUE}: back-to-back bcasts"
                    + " share datagrams, which the kernel fragments; 1472 keeps each within one Ethernet frame).")
    private int udpMtu;

    @Override
    public Integer call() throws Exception {
        return output.unlessInvalid(validate(), this::run);
    }

    private int run() throws InterruptedException {
        JsonObject report;
        if (fabric.equals("udp")) {
            Optional<String> unavailable = NamespaceSupport.unavailableReason();
            report = unavailable.isPresent() ? inOneJvm(fallback(unavailable.get())) : inNamespaces();
        } else {
            report = inOneJvm(null);
        }
        JsonArray results = (JsonArray) report.remove("results");
        report.put("loss", loss).put("skew_us", skewMicros).put("iterations", iterations)
                .put("back_to_back_rounds", "udp".equals(report.getString("fabric")) ? 1 : rounds)
                .put("window", window).put("credits", credits).put("sub_group", subGroupSize)
                .put("udp_mtu", "udp".equals(report.getString("fabric")) ? udpMtu : null)
                .put("date", java.time.Instant.now().toString()).put("results", results)
                .put("model", ModelRun.of(report.getInteger("members"), results,
                        !report.getString("layer", "").startsWith("point-to-point")));
        output.print(report, () -> MulticastBenchTable.format(report));
        return plot.draw(() -> BenchPlots.multicast(report).render());
    }

    private static String fallback(String why) {
        return NamespaceSupport.udpFallback(why, "multicast ran on the emulated-ud fabric in one JVM instead");
    }

    /** Every member a JVM in a network namespace of its own, multicast over real IP multicast. */
    private JsonObject inNamespaces() throws InterruptedException {
        DistributedRuns.Parameters parameters = new DistributedRuns.Parameters(sizes, iterations, warmup, backToBack,
                skewMicros, seed, subGroupSize, window, credits, udpMtu);
        NamespaceBench.Outcome outcome;
        try {
            outcome = new NamespaceBench(members, parameters, spec.commandLine().getErr()).run(udpLevelFile(),
                    timeout.seconds());
        } catch (IOException e) {
            if (String.valueOf(e.getMessage()).contains("Operation not permitted")
                    || String.valueOf(e.getMessage()).contains("Permission denied")) {
                return inOneJvm(fallback("network namespaces cannot be created here (" + e.getMessage() + ")"));
            }
            throw new UncheckedIOException("canopy bench multicast --fabric udp: " + e.getMessage(), e);
        }
        return new JsonObject()
                .put("members", members)
                .put("fabric", "udp")
                .put("fallback", outcome.fallback() == null ? null : "the multicast rows ran on the point-to-point"
                        + " trees: " + outcome.fallback())
                .put("layer", outcome.layer())
                .put("failed_attempts", outcome.failedAttempts())
                .put("hosts", members + " network namespaces on one Linux bridge, one member JVM each")
                .put("results", outcome.results());
    }

    /** Every member in this JVM (embedded ZooKeeper, TCP on 127.0.0.1), multicast on the emulated-ud fabric. */
    private JsonObject inOneJvm(String fallback) {
        GridModel grid = GridConfigs.parse(levelFile(), "bench-multicast.rsl").orElseThrow();
        ThreadDelayScheduler wire = new ThreadDelayScheduler("emulated-ud-wire");
        ScheduledExecutorService skewer = Executors.newSingleThreadScheduledExecutor();
        EmulatedUdSwitch emulated = new EmulatedUdSwitch(new EmulatedUdOptions(EmulatedUdOptions.DEFAULT_WIRE_MTU,
                EmulatedUdOptions.DEFAULT_HEADER_OVERHEAD, loss, 0, 0, 0, 0, seed), NanoClock.SYSTEM, wire);
        try (EmulatedGrid job = EmulatedGrid.start(grid, "bench-multicast-" + ProcessHandle.current().pid(), seed)) {
            List<Communicator> world = job.world();
            LevelAlgorithms binomialEverywhere = LevelAlgorithms.everywhere(TreeAlgorithm.BINOMIAL);
            List<Collectives> binomial = new ArrayList<>();
            for (Communicator member : world) {
                binomial.add(new Collectives(member, ConfiguredPlans.of(member.members(), grid, binomialEverywhere),
                        CollectiveSettings.defaults().withPipeline(PipelineSegmenter.wholeMessages())));
            }
            List<BroadcastLayer> layers = openAll(world, binomial, grid, MulticastFabrics.inProcess(emulated),
                    multicastOptions());
            List<BenchMethod> methods = List.of(BenchMethod.multicast(layers),
                    BenchMethod.pointToPoint("binomial", binomial),
                    BenchMethod.pointToPoint("pipelined", binomial.stream()
                            .map(member -> member.withSettings(CollectiveSettings.defaults())).toList()));
            BroadcastTimer timer = new BroadcastTimer(world.size(), 0, skewMicros, seed, skewer);
            JsonArray results = new MethodRuns(timer, iterations, warmup, backToBack, rounds).run(methods, sizes);
            String layer = layers.get(0).description();
            layers.forEach(BroadcastLayer::close);
            return new JsonObject()
                    .put("members", world.size())
                    .put("fabric", "emulated-ud")
                    .put("fallback", fallback)
                    .put("layer", layer)
                    .put("results", results);
        } finally {
            skewer.shutdownNow();
            wire.close();
        }
    }

    private MulticastOptions multicastOptions() {
        return multicastOptions(subGroupSize, window, credits);
    }

    static MulticastOptions multicastOptions(int subGroupSize, int window, int credits) {
        return MulticastOptions.DEFAULTS.withWindow(window, credits).withSubGroupSize(subGroupSize);
    }

    private static List<BroadcastLayer> openAll(List<Communicator> world, List<Collectives> collectives, GridModel grid,
            MulticastFabrics fabrics, MulticastOptions options) {
        List<Future<BroadcastLayer>> opening = new ArrayList<>();
        for (int rank = 0; rank < world.size(); rank++) {
            opening.add(BroadcastLayers.open(world.get(rank), collectives.get(rank), grid.levels(), fabrics, options));
        }
        List<BroadcastLayer> layers = new ArrayList<>();
        opening.forEach(layer -> layers.add(Blocking.await(layer)));
        if (layers.get(0).fallback().isPresent()) {
            layers.forEach(BroadcastLayer::close);
            throw new IllegalStateException("the emulated-ud fabric did not work in this JVM: " + layers.get(0).fallback().get());
        }
        return layers;
    }

    /** One site, one cluster of {@code members} processes, fabric multicast at the cluster level (not IP multicast). */
    private String levelFile() {
        return """
                +
                ( &(type = grid) (name = "bench-multicast") (levels = (lan binomial) (cluster fabric_multicast)) )
                ( &(type = subjob) (label = "cluster") (count = %d) )
                """.formatted(members);
    }

    /** One site, one LAN of {@code members} processes (one per emulated host), IP multicast at the LAN level. */
    private String udpLevelFile() {
        return """
                +
                ( &(type = grid) (name = "bench-multicast") (levels = (lan multicast)) )
                ( &(type = subjob) (label = "lan") (count = %d) )
                """.formatted(members);
    }

    private Optional<String> validate() {
        if (members < 2 || members > 64) {
            return Optional.of("--members must be 2 to 64, got " + members);
        }
        if (!fabric.equals("udp") && !fabric.equals("emulated-ud")) {
            return Optional.of("unknown fabric '" + fabric + "'; choose from [udp, emulated-ud]");
        }
        if (!(loss >= 0 && loss < 1)) {
            return Optional.of("--loss must be in [0, 1), got " + loss);
        }
        if (skewMicros < 0 || skewMicros > 1_000_000) {
            return Optional.of("--skew-us must be 0 to 1000000, got " + skewMicros);
        }
        if (subGroupSize < 0 || subGroupSize > members || timeout.seconds() < 1) {
            return Optional.of("--sub-group must be 0 to --members and --timeout positive");
        }
        if (window < 1 || window > 1 << 16 || credits < MulticastOptions.DEFAULTS.ackEvery() || credits > 1 << 16) {
            return Optional.of("--window must be 1 to 65536 and --credits " + MulticastOptions.DEFAULTS.ackEvery()
                    + " to 65536");
        }
        if (udpMtu < 64 || udpMtu > UdpFabricOptions.MAX_MTU) {
            return Optional.of("--mtu must be 64 to " + UdpFabricOptions.MAX_MTU + " bytes, got " + udpMtu);
        }
        if (iterations < 1 || warmup < 0 || backToBack < 1 || rounds < 1) {
            return Optional.of("--iterations, --back-to-back and --rounds must be at least 1 and --warmup 0 or more");
        }
        if (plot.problem().isPresent()) {
            return plot.problem();
        }
        for (int size : sizes) {
            if (size < 0 || size > 64 << 20) {
                return Optional.of("--sizes entries must be 0 to 67108864 bytes, got " + size);
            }
        }
        return Optional.empty();
    }
}
