package dev.canopy.cli.bench.segmentation;

import dev.canopy.cli.bench.BenchOutput;
import dev.canopy.cli.bench.PlotOption;
import dev.canopy.cli.bench.TimeoutOption;
import dev.canopy.cli.bench.namespaces.NamespaceJob;
import dev.canopy.cli.bench.namespaces.NamespaceSupport;
import dev.canopy.cli.plot.BenchPlots;
import dev.canopy.multicast.internal.fabric.udp.LinkShape;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code canopy bench segmentation}: a switched cluster out of network namespaces (one host each, on a Linux
 * bridge, every link shaped like a switch port: {@code tc tbf} at {@code --rate-mbit}, drop-tail {@code pfifo} of
 * {@code --queue-packets}), one member JVM per host ({@link NamespaceJob}). The members calibrate (S, M1, M2 from
 * native scatter and gather), store the thresholds in the job's ZooKeeper as {@code canopy calibrate} does, read
 * them back as every joining session does, and measure native against optimised scatter and gather
 * ({@link SegmentationBenchMember}). Root only: without root it says so and exits 2. Namespaces are named
 * {@value #NAMESPACE_PREFIX}...; they are removed at the end, on Ctrl-C or kill (a shutdown hook), and those of
 * an earlier run that was killed harder are swept at the start.
 */
@Command(name = "segmentation", mixinStandardHelpOptions = true, resourceBundle = BenchOutput.TEXTS,
        description = "On a switched cluster of network namespaces (tbf + drop-tail pfifo links): calibrate S, M1, M2,"
                + " store them in ZooKeeper, and compare native with optimised scatter and gather. Needs root.")
public final class SegmentationBenchCommand implements Callable<Integer> {

    /** Every namespace of this command's clusters starts with this. */
    public static final String NAMESPACE_PREFIX = "canopy-ic-";

    @Mixin
    private BenchOutput output;

    @Mixin
    private PlotOption plot;

    @Mixin
    private TimeoutOption timeout = new TimeoutOption(1800);

    @Spec
    private CommandSpec spec;

    @Option(names = "--hosts", defaultValue = "16", description = "Hosts of the cluster, one member each (default ${DEFAULT-VALUE}).")
    private int hosts;

    @Option(names = "--rate-mbit", defaultValue = "1000", description = "Every link's rate in Mbit/s (default ${DEFAULT-VALUE}).")
    private int rateMbit;

    @Option(names = "--queue-packets", defaultValue = "32",
            description = "The switch port's drop-tail buffer in packets (default ${DEFAULT-VALUE}).")
    private int queuePackets;

    @Option(names = "--sizes", split = ",",
            defaultValue = "1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576",
            description = "Message sizes per process in bytes, increasing (default 1 KiB to 1 MiB).")
    private List<Integer> sizes;

    @Option(names = "--repetitions", defaultValue = "20",
            description = "Timed runs per size, operation and method in the comparison (default ${DEFAULT-VALUE}).")
    private int repetitions;

    @Option(names = "--calibration-repetitions", defaultValue = "20",
            description = "Timed native runs per size and operation in the calibration (default ${DEFAULT-VALUE}).")
    private int calibrationRepetitions;

    @Option(names = "--escalation-jump-ms", defaultValue = "100",
            description = "A gather sample is escalated when it is at least twice its size's uncongested time and this"
                    + " much above it: half Linux's minimum TCP retransmission timeout by default (${DEFAULT-VALUE} ms),"
                    + " so that the machine's jitter is not taken for incast.")
    private double escalationJumpMillis;

    @Option(names = "--escalation-share", defaultValue = "0.1",
            description = "A size escalates when this share of its samples is escalated (default ${DEFAULT-VALUE},"
                    + " as canopy calibrate).")
    private double escalationShare;

    @Override
    public Integer call() throws Exception {
        return output.unlessInvalid(validate(), this::run);
    }

    private int run() throws InterruptedException {
        Optional<String> unavailable = NamespaceSupport.unavailableReason();
        if (unavailable.isPresent()) {
            return output.refuse(NamespaceSupport.runAsRoot("bench segmentation",
                    "the cluster is built from network namespaces and shaped with tc", unavailable.get()));
        }
        LinkShape link = new LinkShape(rateMbit, queuePackets);
        NamespaceJob.Setup setup = new NamespaceJob.Setup(NAMESPACE_PREFIX, hosts, Optional.of(link), "bench-segmentation",
                levelFile());
        NamespaceJob.Outcome outcome;
        try {
            outcome = new NamespaceJob(setup, List.of(), spec.commandLine().getErr()).run(SegmentationBenchMember.class,
                    List.of(new SegmentationRun(sizes, calibrationRepetitions, repetitions, escalationJumpMillis,
                            escalationShare).toJson().encode()), timeout.seconds());
        } catch (IOException e) {
            return output.fail(e.getMessage());
        }
        SegmentationReport report = SegmentationReport.of(hosts, link, outcome.results().get(SegmentationBenchMember.ROOT));
        output.print(report.toJson(), () -> SegmentationBenchTable.format(report));
        return plot.draw(() -> BenchPlots.segmentation(report.toJson()).render());
    }

    /** One site, one LAN of {@code hosts} processes, flat trees (native scatter and gather are flat). */
    private String levelFile() {
        return """
                +
                ( &(type = grid) (name = "bench-segmentation") (levels = (lan flat)) )
                ( &(type = subjob) (label = "lan") (count = %d) )
                """.formatted(hosts);
    }

    private Optional<String> validate() {
        if (hosts < 2 || hosts > 64) {
            return Optional.of("--hosts must be 2 to 64, got " + hosts);
        }
        if (rateMbit < 1 || rateMbit > 100_000) {
            return Optional.of("--rate-mbit must be 1 to 100000, got " + rateMbit);
        }
        if (queuePackets < 1 || queuePackets > 100_000) {
            return Optional.of("--queue-packets must be 1 to 100000, got " + queuePackets);
        }
        if (sizes.size() < 3 || sizes.stream().anyMatch(size -> size < 1 || size > 16 << 20)) {
            return Optional.of("--sizes needs at least 3 sizes of 1 B to 16 MiB, got " + sizes);
        }
        for (int i = 1; i < sizes.size(); i++) {
            if (sizes.get(i) <= sizes.get(i - 1)) {
                return Optional.of("--sizes must increase, got " + sizes);
            }
        }
        if (repetitions < 2 || calibrationRepetitions < 2) {
            return Optional.of("--repetitions and --calibration-repetitions must be at least 2");
        }
        if (!(escalationJumpMillis >= 0 && escalationJumpMillis <= 60_000) || !(escalationShare > 0 && escalationShare <= 1)) {
            return Optional.of("--escalation-jump-ms must be 0 to 60000 and --escalation-share more than 0 and at most 1");
        }
        if (timeout.seconds() < 1) {
            return Optional.of("--timeout must be positive, got " + timeout.seconds());
        }
        return plot.problem();
    }
}
