package dev.canopy.collectives.plan;

import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.topology.graph.LatencySource;
import java.util.Map;

/**
 * One-way latencies between members as the level file configures them, the prior before probes
 * have measured anything: between sites, half the RTT of the link section (or of
 * {@code default_rtt_ms}); inside a site, half the level threshold of the finest level the two
 * members share (host, cluster or LAN).
 */
public final class GridLatencies implements LatencySource {

    private final GridModel grid;
    private final Map<String, Coordinates> coordinates;

    /** @param coordinates every member's coordinates by the name the planner uses */
    public GridLatencies(GridModel grid, Map<String, Coordinates> coordinates) {
        this.grid = grid;
        this.coordinates = Map.copyOf(coordinates);
    }

    @Override
    public double oneWayMs(String from, String to) {
        Coordinates a = coordinatesOf(from);
        Coordinates b = coordinatesOf(to);
        if (!a.site().equals(b.site())) {
            return grid.linkBetween(a.site(), b.site()).oneWayDelayMs();
        }
        Level level = a.linkLevel(b);
        return grid.thresholds().of(level).orElseThrow() / 2;
    }

    private Coordinates coordinatesOf(String member) {
        Coordinates found = coordinates.get(member);
        if (found == null) {
            throw new IllegalArgumentException("member '" + member + "' has no coordinates in grid " + grid.name());
        }
        return found;
    }
}
