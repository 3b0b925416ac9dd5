package dev.canopy.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The {@code canopy} command: one subcommand per task a grid user has. */
@Command(
        name = "canopy",
        mixinStandardHelpOptions = true,
        versionProvider = CanopyVersion.class,
        description = "Topology-aware collective communication for multi-site Grids.",
        subcommands = {
            CommandLine.HelpCommand.class,
            BenchCommand.class,
            dev.canopy.cli.collectives.LaunchCommand.class,
            dev.canopy.cli.collectives.NodeCommand.class,
            dev.canopy.cli.collectives.CalibrateCommand.class,
            dev.canopy.cli.demo.DemoCommand.class,
            dev.canopy.cli.config.ConfigCommand.class,
            dev.canopy.cli.probe.ProbeCommand.class,
            dev.canopy.cli.topology.TopologyCommand.class,
        })
public final class CanopyCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
