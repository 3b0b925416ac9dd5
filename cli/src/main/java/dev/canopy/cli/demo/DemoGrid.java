package dev.canopy.cli.demo;

import dev.canopy.core.internal.emulation.GridWanEmulation;
import dev.canopy.core.internal.emulation.WanEmulation;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.ProcessPlacement;
import java.util.List;
import java.util.Objects;

/**
 * The grid the demo runs on: one node per process of the level file, and the emulated WAN between its sites;
 * {@code model} is the level file itself (its plans and per-level choices).
 */
public record DemoGrid(String name, List<Coordinates> nodes, WanEmulation wan, GridModel model) {

    public DemoGrid {
        Objects.requireNonNull(name, "name");
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(wan, "wan");
        Objects.requireNonNull(model, "model");
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("the demo grid needs at least one node");
        }
    }

    public static DemoGrid of(GridModel grid) {
        List<Coordinates> nodes = grid.processes().stream().map(ProcessPlacement::coordinates).toList();
        return new DemoGrid(grid.name(), nodes, GridWanEmulation.of(grid), grid);
    }
}
