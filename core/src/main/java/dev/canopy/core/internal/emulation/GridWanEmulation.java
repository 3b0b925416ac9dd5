package dev.canopy.core.internal.emulation;

import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.LinkSpec;
import dev.canopy.gridconfig.model.Site;

/**
 * The WAN a level file describes, ready to emulate on this machine: every directed site pair gets its
 * link section's RTT, jitter, loss and bandwidth (or the grid's {@code default_rtt_ms}, no jitter, no
 * loss, unlimited bandwidth), and every site its {@code uplink_mbps}.
 */
public final class GridWanEmulation {

    private GridWanEmulation() {
    }

    public static WanEmulation of(GridModel grid) {
        WanEmulation emulation = WanEmulation.withDefaultRtt(grid.defaultRttMs());
        for (Site from : grid.sites()) {
            for (Site to : grid.sites()) {
                if (!from.name().equals(to.name())) {
                    emulation = emulation.withOneWayLink(from.name(), to.name(), profile(grid.linkBetween(from.name(), to.name())));
                }
            }
            if (from.uplinkMbps().isPresent()) {
                emulation = emulation.withUplinkMbps(from.name(), from.uplinkMbps().getAsDouble());
            }
        }
        return emulation;
    }

    private static LinkProfile profile(LinkSpec link) {
        return LinkProfile.rtt(link.rttMs())
                .withJitter(link.jitterMs())
                .withLoss(link.loss())
                .withBandwidthMbps(link.bandwidthMbps().orElse(LinkProfile.UNLIMITED));
    }
}
