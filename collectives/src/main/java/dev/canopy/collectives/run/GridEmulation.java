package dev.canopy.collectives.run;

import dev.canopy.core.node.TransportStack;
import dev.canopy.core.transport.emulation.WanEmulationLayer;
import dev.canopy.core.transport.emulation.WanEmulator;
import dev.canopy.gridconfig.Coordinates;

/** How a process of a level file joins the emulated WAN ({@link dev.canopy.core.transport.emulation.GridWanEmulation}). */
public final class GridEmulation {

    private GridEmulation() {
    }

    /** The transport layers of a node at {@code coordinates} on the emulated WAN {@code emulator}. */
    public static TransportStack layers(WanEmulator emulator, Coordinates coordinates, long seed) {
        return below -> new WanEmulationLayer(below, emulator, coordinates, seed);
    }
}
