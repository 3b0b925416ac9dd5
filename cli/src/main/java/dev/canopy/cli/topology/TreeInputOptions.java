package dev.canopy.cli.topology;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The latency file and root shared by the commands that build trees. */
final class TreeInputOptions {

    @Option(names = "--latency", required = true, paramLabel = "FILE.csv", description = "Latency CSV with header from,to,rtt_ms.")
    Path latency;

    @Option(names = "--root", required = true, paramLabel = "NAME", description = "The node that holds the message.")
    String root;

    /** Loads the file and resolves the root; {@link IllegalArgumentException} for bad input. */
    RootedInput load() {
        LatencyInput input = LatencyInput.load(latency);
        return new RootedInput(input, input.rootIndex(root));
    }

    /** A loaded latency file and the index of the root in its matrix. */
    record RootedInput(LatencyInput input, int root) {
    }
}
