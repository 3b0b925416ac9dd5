package dev.canopy.collectives.run;

import dev.canopy.core.node.TransportStack;
import dev.canopy.core.transport.emulation.LinkProfile;
import dev.canopy.core.transport.emulation.WanEmulation;
import dev.canopy.core.transport.emulation.WanEmulationLayer;
import dev.canopy.core.transport.emulation.WanEmulator;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.LinkSpec;
import dev.canopy.gridconfig.model.Site;

/**
 * The WAN a level file describes, emulated on this machine: every directed site pair gets its link
 * section's RTT, jitter, loss and bandwidth (or {@code default_rtt_ms}), every site its uplink.
 */
public final class GridEmulation {

    private GridEmulation() {
    }

    public static WanEmulation of(GridModel grid) {
        WanEmulation emulation = WanEmulation.withDefaultRtt(grid.defaultRttMs());
        for (Site from : grid.sites()) {
            for (Site to : grid.sites()) {
                if (!from.name().equals(to.name())) {
                    LinkSpec link = grid.linkBetween(from.name(), to.name());
                    LinkProfile profile = LinkProfile.rtt(link.rttMs()).withJitter(link.jitterMs()).withLoss(link.loss())
                            .withBandwidthMbps(link.bandwidthMbps().orElse(LinkProfile.UNLIMITED));
                    emulation = emulation.withOneWayLink(from.name(), to.name(), profile);
                }
            }
            if (from.uplinkMbps().isPresent()) {
                emulation = emulation.withUplinkMbps(from.name(), from.uplinkMbps().getAsDouble());
            }
        }
        return emulation;
    }

    /** The transport layers of a node at {@code coordinates} on the emulated WAN {@code emulator}. */
    public static TransportStack layers(WanEmulator emulator, Coordinates coordinates, long seed) {
        return below -> new WanEmulationLayer(below, emulator, coordinates, seed);
    }
}
