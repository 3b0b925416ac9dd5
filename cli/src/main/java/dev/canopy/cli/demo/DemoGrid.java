package dev.canopy.cli.demo;

import dev.canopy.core.node.TransportStack;
import dev.canopy.gridconfig.Coordinates;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The grid the demo runs on: one node per coordinate, and what each node puts over its transport
 * (WAN emulation of the links between sites, when a level file provides it).
 */
public record DemoGrid(List<Coordinates> nodes, Function<Coordinates, TransportStack> layers) {

    /** Four sites in two wide-area groups; the demo's default grid when no level file is given. */
    private static final List<Coordinates> SITES = List.of(
            new Coordinates("asia", "tokyo", "tokyo-lan", "tokyo-c1", "tokyo"),
            new Coordinates("asia", "seoul", "seoul-lan", "seoul-c1", "seoul"),
            new Coordinates("europe", "paris", "paris-lan", "paris-c1", "paris"),
            new Coordinates("europe", "berlin", "berlin-lan", "berlin-c1", "berlin"));

    public DemoGrid {
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(layers, "layers");
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("the demo grid needs at least one node");
        }
    }

    /** {@code count} nodes spread round robin over four sites, hosts {@code <site>-h<i>}, no emulation. */
    public static DemoGrid fourSites(int count) {
        List<Coordinates> nodes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Coordinates site = SITES.get(i % SITES.size());
            nodes.add(new Coordinates(site.wanGroup(), site.site(), site.lanId(), site.cluster(),
                    site.site() + "-h" + i / SITES.size()));
        }
        return new DemoGrid(nodes, coordinates -> TransportStack.none());
    }
}
