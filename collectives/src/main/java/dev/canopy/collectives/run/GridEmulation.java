package dev.canopy.collectives.run;

import dev.canopy.core.internal.emulation.WanEmulation;
import dev.canopy.core.internal.emulation.WanEmulationLayer;
import dev.canopy.core.internal.emulation.WanEmulator;
import dev.canopy.core.node.TransportStack;
import dev.canopy.gridconfig.Coordinates;

/** How a process of a level file joins the emulated WAN ({@link dev.canopy.core.internal.emulation.GridWanEmulation}). */
public final class GridEmulation {

    private GridEmulation() {
    }

    /** The transport layers of a node at {@code coordinates} on the emulated WAN {@code emulator}. */
    public static TransportStack layers(WanEmulator emulator, Coordinates coordinates, long seed) {
        return below -> new WanEmulationLayer(below, emulator, coordinates, seed);
    }

    /**
     * The same layers on an emulator of {@code wan} that starts (with its thread) when the first transport is
     * built over them, not when the options are made: parsing options starts no thread. It then lives as long
     * as the process.
     */
    public static TransportStack startedOnFirstUse(WanEmulation wan, Coordinates coordinates, long seed) {
        StartedOnce emulator = new StartedOnce(wan);
        return below -> new WanEmulationLayer(below, emulator.get(), coordinates, seed);
    }

    /** Starts the emulator of {@code wan} on the first {@link #get} and returns that one ever after. */
    private static final class StartedOnce {
        private final WanEmulation wan;
        private WanEmulator started;

        StartedOnce(WanEmulation wan) {
            this.wan = wan;
        }

        synchronized WanEmulator get() {
            if (started == null) {
                started = WanEmulator.start(wan);
            }
            return started;
        }
    }
}
