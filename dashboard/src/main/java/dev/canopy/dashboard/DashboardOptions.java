package dev.canopy.dashboard;

import java.util.Objects;

/**
 * Where the dashboard listens. Loopback by default: the dashboard shows a job's topology and addresses, so
 * opening it wider ({@code --dashboard-host 0.0.0.0}) is the operator's explicit choice.
 *
 * @param port 0 for any free port
 */
public record DashboardOptions(String host, int port) {

    public static final String LOOPBACK = "127.0.0.1";

    public DashboardOptions {
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("dashboard host is empty; give an address such as " + LOOPBACK);
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("dashboard port " + port + " is out of range; give 0 (any free port) to 65535");
        }
    }

    public static DashboardOptions onLoopback(int port) {
        return new DashboardOptions(LOOPBACK, port);
    }
}
