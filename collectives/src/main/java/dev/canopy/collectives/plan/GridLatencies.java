package dev.canopy.collectives.plan;

import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.topology.internal.graph.LatencySource;
import dev.canopy.topology.internal.tree.LogGpParameters;
import java.util.Map;

/**
 * One-way latencies between members as the level file configures them, the prior before probes
 * have measured anything: between sites, half the RTT of the link section (or of
 * {@code default_rtt_ms}); inside a site, the one-way latency {@code canopy calibrate} measured for the
 * finest level the two members share (host, cluster or LAN) when it did, otherwise half that level's
 * threshold.
 */
public final class GridLatencies implements LatencySource {

    private final GridModel grid;
    private final Map<String, Coordinates> coordinates;
    private final LogGpParameters measured;

    /** Inside sites, half the level thresholds: nothing measured. */
    public GridLatencies(GridModel grid, Map<String, Coordinates> coordinates) {
        this(grid, coordinates, LogGpParameters.DEFAULTS);
    }

    /**
     * @param coordinates every member's coordinates by the name the planner uses
     * @param measured the deployment's calibrated parameters, whose per-level latencies apply inside sites
     */
    public GridLatencies(GridModel grid, Map<String, Coordinates> coordinates, LogGpParameters measured) {
        this.grid = grid;
        this.coordinates = Map.copyOf(coordinates);
        this.measured = measured;
    }

    @Override
    public double oneWayMs(String from, String to) {
        Coordinates a = coordinatesOf(from);
        Coordinates b = coordinatesOf(to);
        if (!a.site().equals(b.site())) {
            return grid.linkBetween(a.site(), b.site()).oneWayDelayMs();
        }
        Level level = a.linkLevel(b);
        return measured.latencyMs(level).orElseGet(() -> grid.thresholds().of(level).orElseThrow() / 2);
    }

    private Coordinates coordinatesOf(String member) {
        Coordinates found = coordinates.get(member);
        if (found == null) {
            throw new IllegalArgumentException("member '" + member + "' has no coordinates in grid " + grid.name());
        }
        return found;
    }
}
