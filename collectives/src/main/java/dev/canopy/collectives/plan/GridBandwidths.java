package dev.canopy.collectives.plan;

import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.topology.graph.BandwidthSource;
import java.util.Map;

/**
 * Bandwidths between members as the level file configures them and the WAN emulation imposes them:
 * a member's messages to other sites share its site's {@code uplink_mbps}, then cross the link
 * section's {@code bandwidth_mbps}; either is unlimited when the file omits it.
 */
public final class GridBandwidths implements BandwidthSource {

    private final GridModel grid;
    private final Map<String, Coordinates> coordinates;

    /** @param coordinates every member's coordinates by the name the planner uses */
    public GridBandwidths(GridModel grid, Map<String, Coordinates> coordinates) {
        this.grid = grid;
        this.coordinates = Map.copyOf(coordinates);
    }

    @Override
    public String siteOf(String node) {
        Coordinates found = coordinates.get(node);
        if (found == null) {
            throw new IllegalArgumentException("member '" + node + "' has no coordinates in grid " + grid.name());
        }
        return found.site();
    }

    @Override
    public double uplinkMbps(String site) {
        return grid.site(site).orElseThrow(() -> new IllegalArgumentException("grid " + grid.name() + " has no site '"
                + site + "'")).uplinkMbps().orElse(Double.POSITIVE_INFINITY);
    }

    @Override
    public double linkMbps(String fromSite, String toSite) {
        return grid.linkBetween(fromSite, toSite).bandwidthMbps().orElse(Double.POSITIVE_INFINITY);
    }
}
