package dev.canopy.cli.bench.groups;

import dev.canopy.cli.bench.BenchOutput;
import dev.canopy.cli.bench.TimeoutOption;
import dev.canopy.cli.bench.namespaces.NamespaceSupport;
import dev.canopy.collectives.internal.multicast.GroupEndpoints;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.emulation.ThreadDelayScheduler;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.fabric.udp.NetworkNamespaces;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code canopy bench groups}: the seed's experiment on multicast group management and more, in one run
 * ({@link GroupsBenchRun}): a one-to-five scatter among the members by the {@code dynamic}, {@code static} and
 * {@code persistent} policies, the point-to-point {@code tree} and {@code auto}; scatter, scatterv and bcast from
 * one root to every other member by the same policies against the piece size (the multicast-vs-tree crossover);
 * each receiver's completion (average against largest); and what creating and destroying a group costs per
 * policy, measured through ZooKeeper. {@code --fabric emulated-ud}: the in-process InfiniBand UD model;
 * {@code --fabric udp}: real IPv4 multicast sockets on the veth interface of a network namespace this command
 * creates (prefix {@code canopy-mc-}, deleted afterwards), every member in one JVM started inside it, so each
 * datagram goes through the kernel's multicast routing and is looped back to the group's other sockets on that
 * host (no bridge hop); without root it says why in {@code fallback} and runs as {@code emulated-ud}.
 */
@Command(name = "groups", mixinStandardHelpOptions = true, resourceBundle = BenchOutput.TEXTS,
        description = "Compare the multicast group policies (dynamic, static, persistent, auto) with point-to-point sends.")
public final class GroupsBenchCommand implements Callable<Integer> {

    @Mixin
    private BenchOutput output;

    @Mixin
    private TimeoutOption timeout = new TimeoutOption(1800);

    @Option(names = "--members", defaultValue = "29", description = "Members (default ${DEFAULT-VALUE}, the seed's).")
    private int members;

    @Option(names = "--sizes", defaultValue = "10,100,1000,10000", split = ",",
            description = "Bytes per receiver (default ${DEFAULT-VALUE}).")
    private List<Integer> sizes;

    @Option(names = "--operations", defaultValue = "scatter-1-to-5,scatter,scatterv,bcast", split = ",",
            description = "Which of scatter-1-to-5, scatter, scatterv, bcast (default all).")
    private List<String> operations;

    @Option(names = "--fabric", defaultValue = "emulated-ud", description = "udp or emulated-ud (default ${DEFAULT-VALUE}).")
    private String fabric;

    @Option(names = "--loss", defaultValue = "0", description = "emulated-ud: loss per receiver copy, 0 to <1.")
    private double loss;

    @Option(names = "--iterations", defaultValue = "11", description = "Timed iterations per policy, operation and size.")
    private int iterations;

    @Option(names = "--warmup", defaultValue = "2", description = "Untimed iterations first.")
    private int warmup;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the fabric's loss.")
    private long seed;

    /** Set by the parent of a udp run: this process runs inside the namespace, multicasting on this address. */
    @Option(names = "--inside-namespace", hidden = true)
    private String insideNamespace;

    @Option(names = "--result-file", hidden = true)
    private Path resultFile;

    @Override
    public Integer call() throws Exception {
        return output.unlessInvalid(validate(), this::run);
    }

    private int run() throws IOException, InterruptedException {
        GroupsBenchRun run = new GroupsBenchRun(members, sizes, iterations, warmup, operations);
        if (insideNamespace != null) {
            JsonObject report = run.run(GroupEndpoints.udp(InetAddress.getByName(insideNamespace)),
                    MulticastOptions.DEFAULTS, seed);
            Files.writeString(resultFile, report.encode(), StandardCharsets.UTF_8);
            return BenchOutput.EXIT_OK;
        }
        JsonObject report;
        String fallback = null;
        if (fabric.equals("udp")) {
            Optional<String> unavailable = NamespaceSupport.unavailableReason();
            if (unavailable.isPresent()) {
                fallback = NamespaceSupport.udpFallback(unavailable.get(), "ran on the emulated-ud fabric instead");
                report = emulated(run);
            } else {
                report = inNamespace();
            }
        } else {
            report = emulated(run);
        }
        JsonArray results = (JsonArray) report.remove("results");
        JsonArray management = (JsonArray) report.remove("management");
        report.put("fabric", fallback == null ? fabric : "emulated-ud").put("fallback", fallback)
                .put("members_note", members < 29 ? "fewer than the seed's 29 members: --members " + members : null)
                .put("root", 0).put("iterations", iterations).put("loss", loss)
                .put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString())
                .put("machine", Runtime.getRuntime().availableProcessors() + " CPUs, "
                        + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"))
                .put("results", results).put("management", management);
        output.print(report, () -> GroupsBenchTable.format(report));
        return BenchOutput.EXIT_OK;
    }

    private JsonObject emulated(GroupsBenchRun run) {
        ThreadDelayScheduler wire = new ThreadDelayScheduler("emulated-ud-wire");
        try {
            EmulatedUdSwitch emulated = new EmulatedUdSwitch(new EmulatedUdOptions(EmulatedUdOptions.DEFAULT_WIRE_MTU,
                    EmulatedUdOptions.DEFAULT_HEADER_OVERHEAD, loss, 0, 0, 0, 0, seed), NanoClock.SYSTEM, wire);
            return run.run(GroupEndpoints.emulated(emulated), MulticastOptions.DEFAULTS, seed);
        } finally {
            wire.close();
        }
    }

    /** This command once more, inside a network namespace of its own, on the namespace's veth address. */
    private JsonObject inNamespace() throws IOException, InterruptedException {
        NetworkNamespaces.removeStale();
        Path result = Files.createTempFile("canopy-bench-groups", ".json");
        NetworkNamespaces namespaces = NetworkNamespaces.create(1);
        Thread cleanup = new Thread(namespaces::close, "canopy-bench-groups-namespace-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        Process child = null;
        try {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), dev.canopy.cli.CanopyMain.class.getName(),
                    "bench", "groups", "--members", String.valueOf(members), "--iterations", String.valueOf(iterations),
                    "--warmup", String.valueOf(warmup), "--seed", String.valueOf(seed),
                    "--sizes", String.join(",", sizes.stream().map(String::valueOf).toList()),
                    "--operations", String.join(",", operations),
                    "--inside-namespace", NetworkNamespaces.addressOf(0), "--result-file", result.toString()));
            child = namespaces.exec(0, command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            if (!child.waitFor(timeout.seconds(), TimeUnit.SECONDS)) {
                throw new IOException("the udp run did not finish within " + timeout.seconds() + " s (--timeout)");
            }
            if (child.exitValue() != 0) {
                throw new IOException("the udp run inside namespace " + namespaces.hostNamespace(0) + " exited with "
                        + child.exitValue() + " (its log is above)");
            }
            return new JsonObject(Files.readString(result, StandardCharsets.UTF_8)).put("hosts",
                    "one network namespace (veth 10.213.0.1 on a bridge), every member's sockets in it");
        } finally {
            if (child != null) {
                child.destroyForcibly();
            }
            namespaces.close();
            Runtime.getRuntime().removeShutdownHook(cleanup);
            Files.deleteIfExists(result);
        }
    }

    private Optional<String> validate() {
        if (members < 3 || members > 64) {
            return Optional.of("--members must be 3 to 64, got " + members);
        }
        if (!fabric.equals("udp") && !fabric.equals("emulated-ud")) {
            return Optional.of("unknown fabric '" + fabric + "'; choose from [udp, emulated-ud]");
        }
        if (!(loss >= 0 && loss < 1)) {
            return Optional.of("--loss must be in [0, 1), got " + loss);
        }
        if (iterations < 1 || warmup < 0 || timeout.seconds() < 1) {
            return Optional.of("--iterations must be at least 1, --warmup 0 or more and --timeout positive");
        }
        for (String operation : operations) {
            if (!GroupsBenchRun.OPERATIONS.contains(operation)) {
                return Optional.of("unknown operation '" + operation + "'; choose from " + GroupsBenchRun.OPERATIONS);
            }
        }
        for (int size : sizes) {
            if (size < 0 || size > 1 << 20) {
                return Optional.of("--sizes entries must be 0 to 1048576 bytes per receiver, got " + size);
            }
        }
        if ((insideNamespace == null) != (resultFile == null)) {
            return Optional.of("--inside-namespace and --result-file go together (set by --fabric udp)");
        }
        return Optional.empty();
    }
}
