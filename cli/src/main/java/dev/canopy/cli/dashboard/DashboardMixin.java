package dev.canopy.cli.dashboard;

import dev.canopy.dashboard.DashboardOptions;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --dashboard PORT} and {@code --dashboard-host HOST} for the commands that can serve the dashboard of the
 * job they run ({@code demo}, {@code launch}, {@code node}). Without {@code --dashboard} no dashboard runs.
 */
public final class DashboardMixin {

    @Option(names = "--dashboard", paramLabel = "PORT",
            description = "Serve the job's web dashboard on this port (0: any free port); read-only.")
    private Integer port;

    @Option(names = "--dashboard-host", paramLabel = "ADDRESS", defaultValue = DashboardOptions.LOOPBACK,
            description = "The address the dashboard listens on (default: ${DEFAULT-VALUE}; 0.0.0.0 opens it to the network).")
    private String host;

    /**
     * The dashboard's options when {@code --dashboard} was given.
     *
     * @throws IllegalArgumentException naming the option when the port or host is unusable
     */
    public Optional<DashboardOptions> options() {
        return port == null ? Optional.empty() : Optional.of(new DashboardOptions(host, port));
    }

    /** For commands that serve a dashboard by default (the demo): these options, or {@code defaultPort} on loopback. */
    public DashboardOptions optionsOr(int defaultPort) {
        return new DashboardOptions(host, port == null ? defaultPort : port);
    }
}
