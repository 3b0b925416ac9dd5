package dev.canopy.cli.topology;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code canopy topology}: trees and levels computed from measured latencies. */
@Command(
        name = "topology",
        mixinStandardHelpOptions = true,
        description = "Plan broadcast trees and derive the five-level hierarchy from a latency CSV (from,to,rtt_ms).",
        subcommands = {TopologyPlanCommand.class, TopologyLevelsCommand.class, TopologyCompareCommand.class,
            TopologyLinksCommand.class, TopologyHierarchyCommand.class})
public final class TopologyCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
