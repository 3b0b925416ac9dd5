package dev.canopy.cli.topology;

import dev.canopy.topology.internal.tree.CostModel;
import picocli.CommandLine.Option;

/** The cost-model options shared by the topology commands; 100 Mbit/s is a WAN path's share (8e-5 ms per byte). */
final class CostOptionsMixin {

    @Option(names = "--message-bytes", paramLabel = "N", defaultValue = "0",
            description = "Message size in bytes; each send then costs N / bandwidth more (default: ${DEFAULT-VALUE}).")
    long messageBytes;

    @Option(names = "--overhead-ms", paramLabel = "X", defaultValue = "0",
            description = "Per-send overhead o in ms: the k-th child of a node waits k sends (default: ${DEFAULT-VALUE}).")
    double overheadMs;

    @Option(names = "--gap-ms", paramLabel = "X", defaultValue = "0",
            description = "Minimum time g between two sends of one node, in ms (default: ${DEFAULT-VALUE}).")
    double gapMs;

    @Option(names = "--bandwidth-mbps", paramLabel = "MBPS", defaultValue = "100",
            description = "Bandwidth per send in Mbit/s, giving G = 8 / (MBPS * 1000) ms per byte (default: ${DEFAULT-VALUE}).")
    double bandwidthMbps;

    /** The validated cost model; an {@link IllegalArgumentException} names the bad option. */
    CostModel costModel() {
        if (messageBytes < 0) {
            throw new IllegalArgumentException("--message-bytes must be >= 0, got " + messageBytes);
        }
        requireNonNegative("--overhead-ms", overheadMs);
        requireNonNegative("--gap-ms", gapMs);
        if (!Double.isFinite(bandwidthMbps) || bandwidthMbps <= 0) {
            throw new IllegalArgumentException("--bandwidth-mbps must be a number > 0, got " + bandwidthMbps);
        }
        return new CostModel(overheadMs, gapMs, 8 / (bandwidthMbps * 1000), messageBytes);
    }

    private static void requireNonNegative(String option, double value) {
        if (!Double.isFinite(value) || value < 0) {
            throw new IllegalArgumentException(option + " must be a number >= 0, got " + value);
        }
    }
}
