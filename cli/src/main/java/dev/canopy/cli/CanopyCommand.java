package dev.canopy.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The {@code canopy} command: one subcommand per task a grid user has. */
@Command(
        name = "canopy",
        mixinStandardHelpOptions = true,
        versionProvider = CanopyVersion.class,
        description = "Topology-aware collective communication for multi-site Grids.",
        subcommands = {
            dev.canopy.cli.demo.DemoCommand.class,
            dev.canopy.cli.config.ConfigCommand.class,
            dev.canopy.cli.topology.TopologyCommand.class,
            dev.canopy.cli.probe.ProbeCommand.class,
            dev.canopy.cli.collectives.LaunchCommand.class,
            dev.canopy.cli.collectives.NodeCommand.class,
            dev.canopy.cli.launch.LaunchAgentCommand.class,
            dev.canopy.cli.agent.AgentCommand.class,
            dev.canopy.cli.collectives.CalibrateCommand.class,
            dev.canopy.cli.dashboard.DashboardCommand.class,
            BenchCommand.class,
            dev.canopy.cli.keys.KeysCommand.class,
            CompletionCommand.class,
            CommandLine.HelpCommand.class,
        })
public final class CanopyCommand implements Runnable {

    /** The option that adds stack traces to error messages; every subcommand takes it. */
    static final String VERBOSE = "--verbose";

    @Spec
    private CommandSpec spec;

    /**
     * Also read by programs that {@code canopy node} runs in this JVM (their failures go through
     * {@code ProgramMain}, below the CLI); picocli sets it on every parse, so it never outlives one.
     */
    @Option(names = {"-v", VERBOSE}, scope = ScopeType.INHERIT, defaultValue = "false",
            description = "Log at INFO (here and in the processes this command starts), and on an error print its"
                    + " stack trace after the one-line message.")
    void verbose(boolean on) {
        System.setProperty("canopy.verbose", Boolean.toString(on));
    }

    /** Read from the parse result, wherever it is on the command line ({@link Verbosity}). */
    @Option(names = {"-q", Verbosity.QUIET}, scope = ScopeType.INHERIT, defaultValue = "false",
            description = "Log errors only (here and in the processes this command starts) and print no progress lines.")
    private boolean quiet;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
