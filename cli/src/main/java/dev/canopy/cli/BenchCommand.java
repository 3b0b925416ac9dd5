package dev.canopy.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code canopy bench}: the benchmarks whose tables the README reports, one subcommand each. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "Run a benchmark and print its table (or JSON with --json).",
        subcommands = {
            dev.canopy.cli.bench.P2pBenchCommand.class,
            dev.canopy.cli.topology.TopologyBenchCommand.class,
            dev.canopy.cli.collectives.CollectivesBenchCommand.class,
            dev.canopy.cli.bench.multicast.MulticastBenchCommand.class,
            dev.canopy.cli.bench.dynamic.DynamicBenchCommand.class,
            dev.canopy.cli.bench.groups.GroupsBenchCommand.class,
            dev.canopy.cli.bench.segmentation.SegmentationBenchCommand.class,
        })
public final class BenchCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
