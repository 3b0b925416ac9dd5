package dev.canopy.cli.demo;

import dev.canopy.dashboard.DashboardOptions;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The demo's dashboard options: where it listens and how long the demo keeps running for the browser. */
public final class DemoDashboardOptions {

    @Option(names = "--dashboard-port", paramLabel = "PORT", defaultValue = "0",
            description = "The dashboard's port (default ${DEFAULT-VALUE}: any free port).")
    private int port;

    @Option(names = "--dashboard-host", paramLabel = "ADDRESS", defaultValue = DashboardOptions.LOOPBACK,
            description = "The address the dashboard listens on (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "0",
            description = "Keep the grid and the dashboard running this many seconds after the run, with a collective"
                    + " every 2 s; from 40 s on, with live plans and a WAN link degraded halfway, to show a re-plan"
                    + " (default ${DEFAULT-VALUE}; Ctrl-C ends it cleanly).")
    private long durationSeconds;

    /** @throws IllegalArgumentException naming the option when a value is out of range */
    DashboardOptions dashboard() {
        return new DashboardOptions(host, port);
    }

    /** @throws IllegalArgumentException when negative */
    Duration duration() {
        if (durationSeconds < 0) {
            throw new IllegalArgumentException("--duration must be 0 or more seconds, got " + durationSeconds);
        }
        return Duration.ofSeconds(durationSeconds);
    }
}
