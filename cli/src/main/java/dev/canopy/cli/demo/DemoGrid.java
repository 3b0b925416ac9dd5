package dev.canopy.cli.demo;

import dev.canopy.core.transport.emulation.LinkProfile;
import dev.canopy.core.transport.emulation.WanEmulation;
import dev.canopy.gridconfig.Coordinates;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The grid the demo runs on: one node per coordinate, and the emulated WAN between their sites.
 * A level file (grid-config) can supply both; {@link #fourSites(int)} is the built-in default.
 */
public record DemoGrid(List<Coordinates> nodes, WanEmulation wan) {

    private static final List<Coordinates> SITES = List.of(
            new Coordinates("asia", "tokyo", "tokyo-lan", "tokyo-c1", "tokyo"),
            new Coordinates("asia", "seoul", "seoul-lan", "seoul-c1", "seoul"),
            new Coordinates("europe", "paris", "paris-lan", "paris-c1", "paris"),
            new Coordinates("europe", "berlin", "berlin-lan", "berlin-c1", "berlin"));

    /** Round trips of the default grid: inside each wide-area group, and between the groups. */
    static final double TOKYO_SEOUL_RTT_MS = 33;
    static final double PARIS_BERLIN_RTT_MS = 18;
    static final double ASIA_EUROPE_RTT_MS = 230;

    public DemoGrid {
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(wan, "wan");
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("the demo grid needs at least one node");
        }
    }

    /**
     * {@code count} nodes spread round robin over four sites in two wide-area groups (hosts
     * {@code <site>-h<i>}): Tokyo and Seoul 33 ms apart, Paris and Berlin 18 ms, Asia and Europe 230 ms.
     */
    public static DemoGrid fourSites(int count) {
        List<Coordinates> nodes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Coordinates site = SITES.get(i % SITES.size());
            nodes.add(new Coordinates(site.wanGroup(), site.site(), site.lanId(), site.cluster(),
                    site.site() + "-h" + i / SITES.size()));
        }
        WanEmulation wan = WanEmulation.withDefaultRtt(ASIA_EUROPE_RTT_MS)
                .withLink("tokyo", "seoul", LinkProfile.rtt(TOKYO_SEOUL_RTT_MS))
                .withLink("paris", "berlin", LinkProfile.rtt(PARIS_BERLIN_RTT_MS));
        return new DemoGrid(nodes, wan);
    }
}
