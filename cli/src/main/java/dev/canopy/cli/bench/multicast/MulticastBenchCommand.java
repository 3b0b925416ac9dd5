package dev.canopy.cli.bench.multicast;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.multicast.BroadcastLayer;
import dev.canopy.collectives.multicast.BroadcastLayers;
import dev.canopy.collectives.multicast.MulticastFabrics;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.collectives.segmentation.PipelineSegmenter;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.transport.emulation.NanoClock;
import dev.canopy.core.transport.emulation.ThreadDelayScheduler;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.multicast.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.reliable.MulticastOptions;
import dev.canopy.topology.hierarchy.LevelAlgorithms;
import dev.canopy.topology.tree.TreeAlgorithm;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code canopy bench multicast}: in one run, bcast by multicast (the collectives' multicast layer over
 * the reliable substrate) and by Canopy's point-to-point binomial tree, whole and pipelined, over the same
 * members: real nodes in this JVM (embedded ZooKeeper, TCP on 127.0.0.1), root rank 0. The methods take
 * turns within each size, so the machine's drift hits them alike.
 */
@Command(name = "multicast", mixinStandardHelpOptions = true,
        description = "Compare bcast by reliable multicast with the point-to-point binomial and pipelined trees.")
public final class MulticastBenchCommand implements Callable<Integer> {

    static final String UDP_UNAVAILABLE = "--fabric udp: the bench's members run in this JVM on 127.0.0.1, and IP"
            + " multicast is never sent on the machine's own interfaces; the bench does not build network namespaces"
            + " (the multicast module's UdpMulticastNamespaceTest does, as root)";

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

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the fabric's loss and of the skew.")
    private long seed;

    @Option(names = "--json", description = "Print JSON instead of a table.")
    private boolean json;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        Optional<String> invalid = validate();
        if (invalid.isPresent()) {
            err.println("canopy bench multicast: " + invalid.get());
            return 2;
        }
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
            String fallback = fabric.equals("udp") ? UDP_UNAVAILABLE + "; " + udpFallbackReason(world, binomial, grid)
                    + "; multicast ran on the emulated-ud fabric instead" : null;
            List<BroadcastLayer> layers = openAll(world, binomial, grid, MulticastFabrics.inProcess(emulated));
            List<BenchMethod> methods = List.of(BenchMethod.multicast(layers),
                    BenchMethod.pointToPoint("binomial", binomial),
                    BenchMethod.pointToPoint("pipelined", binomial.stream()
                            .map(member -> member.withSettings(CollectiveSettings.defaults())).toList()));
            BroadcastTimer timer = new BroadcastTimer(world.size(), 0, skewMicros, seed, skewer);
            JsonArray results = new MethodRuns(timer, iterations, warmup, backToBack).run(methods, sizes);
            layers.forEach(BroadcastLayer::close);
            JsonObject report = new JsonObject()
                    .put("members", world.size())
                    .put("fabric", "emulated-ud")
                    .put("fallback", fallback)
                    .put("loss", loss)
                    .put("skew_us", skewMicros)
                    .put("iterations", iterations)
                    .put("date", java.time.Instant.now().toString())
                    .put("results", results);
            PrintWriter out = spec.commandLine().getOut();
            out.println(json ? report.encodePrettily() : MulticastBenchTable.format(report));
            out.flush();
        } finally {
            skewer.shutdownNow();
            wire.close();
        }
        return 0;
    }

    /** What the collectives' own selection says about IP multicast for these members (the loopback fallback). */
    private static String udpFallbackReason(List<Communicator> world, List<Collectives> collectives, GridModel grid) {
        dev.canopy.gridconfig.model.LevelAlgorithms lanMulticast = grid.levels()
                .with(dev.canopy.gridconfig.Level.LAN, dev.canopy.gridconfig.model.Algorithm.MULTICAST)
                .with(dev.canopy.gridconfig.Level.CLUSTER, dev.canopy.gridconfig.model.Algorithm.BINOMIAL);
        List<BroadcastLayer> layers = new ArrayList<>();
        List<Future<BroadcastLayer>> opening = new ArrayList<>();
        for (int rank = 0; rank < world.size(); rank++) {
            opening.add(BroadcastLayers.open(world.get(rank), collectives.get(rank), lanMulticast,
                    MulticastFabrics.ipOnly(), MulticastOptions.DEFAULTS));
        }
        opening.forEach(layer -> layers.add(Blocking.await(layer)));
        layers.forEach(BroadcastLayer::close);
        return layers.get(0).fallback().orElse("IP multicast would work here");
    }

    private static List<BroadcastLayer> openAll(List<Communicator> world, List<Collectives> collectives, GridModel grid,
            MulticastFabrics fabrics) {
        List<Future<BroadcastLayer>> opening = new ArrayList<>();
        for (int rank = 0; rank < world.size(); rank++) {
            opening.add(BroadcastLayers.open(world.get(rank), collectives.get(rank), grid.levels(), fabrics,
                    MulticastOptions.DEFAULTS));
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
        if (iterations < 1 || warmup < 0 || backToBack < 1) {
            return Optional.of("--iterations and --back-to-back must be at least 1 and --warmup 0 or more");
        }
        for (int size : sizes) {
            if (size < 0 || size > 64 << 20) {
                return Optional.of("--sizes entries must be 0 to 67108864 bytes, got " + size);
            }
        }
        return Optional.empty();
    }
}
