package dev.canopy.collectives.soak;

import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.internal.emulation.WanEmulationLayer;
import dev.canopy.core.internal.fault.SeededLossLayer;
import dev.canopy.core.internal.fault.Traffic;
import dev.canopy.gridconfig.model.GridModel;

/**
 * Every process of a level file as a real node in this JVM ({@link EmulatedGrid}), with the file's WAN
 * emulated between sites (RTT and jitter) and a loss rate on every link, sites and LANs alike: each
 * datagram is dropped with that probability ({@link SeededLossLayer}) and each reliable frame is
 * retransmitted after a timeout ({@link RetransmissionLayer}).
 */
final class LossyGrid {

    private LossyGrid() {
    }

    /** Starts and joins every process of {@code grid}; process i's faults are seeded with {@code seed + i}. */
    static EmulatedGrid start(GridModel grid, String job, double loss, long retransmissionTimeoutMs, long seed,
            RetransmissionLayer.LossCounts counts) {
        return EmulatedGrid.start(grid, job, (emulator, index) -> below -> new WanEmulationLayer(
                new RetransmissionLayer(new SeededLossLayer(below, Traffic.DATAGRAMS, loss, seed + index),
                        loss, retransmissionTimeoutMs, seed + index, counts),
                emulator, grid.processes().get(index).coordinates(), seed + index));
    }
}
