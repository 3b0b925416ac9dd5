package dev.canopy.cli.config;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code canopy config}: check and show RSL-like level files, and write them from hostfiles and Slurm. */
@Command(
        name = "config",
        mixinStandardHelpOptions = true,
        description = "Check or show a level file (RSL-like grid description), or write one from a hostfile or Slurm.",
        subcommands = {
            ConfigCheckCommand.class,
            ConfigShowCommand.class,
            ConfigFromHostfileCommand.class,
            ConfigFromSlurmCommand.class,
        })
public final class ConfigCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
