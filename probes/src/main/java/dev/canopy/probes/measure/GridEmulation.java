package dev.canopy.probes.measure;

import dev.canopy.core.transport.emulation.LinkProfile;
import dev.canopy.core.transport.emulation.WanEmulation;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.LinkSpec;
import dev.canopy.gridconfig.model.Site;
import java.util.List;

/**
 * The WAN emulation table of a level file: every directed site pair's link, and every site's uplink. Used by
 * {@code canopy probe} and the probe tests; it belongs next to {@code WanEmulation} in core once core offers it.
 */
public final class GridEmulation {

    private GridEmulation() {
    }

    public static WanEmulation of(GridModel grid) {
        WanEmulation emulation = WanEmulation.withDefaultRtt(grid.defaultRttMs());
        List<Site> sites = grid.sites();
        for (Site from : sites) {
            for (Site to : sites) {
                if (!from.equals(to)) {
                    LinkSpec spec = grid.linkBetween(from.name(), to.name());
                    emulation = emulation.withOneWayLink(from.name(), to.name(), new LinkProfile(spec.rttMs(),
                            spec.jitterMs(), spec.loss(), spec.bandwidthMbps().orElse(LinkProfile.UNLIMITED)));
                }
            }
            if (from.uplinkMbps().isPresent()) {
                emulation = emulation.withUplinkMbps(from.name(), from.uplinkMbps().getAsDouble());
            }
        }
        return emulation;
    }

    /**
     * The round trip the emulator imposes between two sites: it delays each direction by half that
     * direction's configured RTT, so asymmetric links average.
     */
    public static double configuredRoundTripMs(GridModel grid, String siteA, String siteB) {
        return (grid.linkBetween(siteA, siteB).rttMs() + grid.linkBetween(siteB, siteA).rttMs()) / 2;
    }
}
