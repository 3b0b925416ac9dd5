package dev.canopy.collectives.plan;

import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.topology.internal.graph.BandwidthSource;
import java.util.HashMap;
import java.util.Map;

/**
 * Bandwidths between members as the level file configures them: a member's messages to other hosts share
 * its host's {@code nic_mbps}, its messages to other sites then its site's {@code uplink_mbps} (as the WAN
 * emulation imposes it), then cross the link section's {@code bandwidth_mbps}; each is unlimited when the
 * file omits it. (The emulation limits uplinks and links, not NICs: a NIC limit is a real host's.)
 */
public final class GridBandwidths implements BandwidthSource {

    private final GridModel grid;
    private final Map<String, Coordinates> coordinates;
    /** The NIC of every member's host, by {@link Coordinates#groupKey}({@link Level#HOST}). */
    private final Map<String, Double> nicMbps = new HashMap<>();

    /** @param coordinates every member's coordinates by the name the planner uses */
    public GridBandwidths(GridModel grid, Map<String, Coordinates> coordinates) {
        this.grid = grid;
        this.coordinates = Map.copyOf(coordinates);
        for (Coordinates at : coordinates.values()) {
            nicMbps.computeIfAbsent(at.groupKey(Level.HOST), host -> grid.nicMbps(at).orElse(Double.POSITIVE_INFINITY));
        }
    }

    @Override
    public String siteOf(String node) {
        return coordinatesOf(node).site();
    }

    @Override
    public String hostOf(String node) {
        return coordinatesOf(node).groupKey(Level.HOST);
    }

    @Override
    public double nicMbps(String host) {
        Double mbps = nicMbps.get(host);
        if (mbps == null) {
            throw new IllegalArgumentException("grid " + grid.name() + " places no member on host '" + host + "'");
        }
        return mbps;
    }

    private Coordinates coordinatesOf(String node) {
        Coordinates found = coordinates.get(node);
        if (found == null) {
            throw new IllegalArgumentException("member '" + node + "' has no coordinates in grid " + grid.name());
        }
        return found;
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
