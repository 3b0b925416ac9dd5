package dev.canopy.core.internal.emulation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import org.junit.jupiter.api.Test;

class GridWanEmulationTest {

    private static GridModel grid(String text) {
        return GridConfigs.parse(text, "test.rsl").orElseThrow();
    }

    @Test
    void everyDirectedSitePairGetsItsLinkSectionOrTheDefault() {
        GridModel grid = grid("""
                +( &(type = grid) (default_rtt_ms = 120) )
                 ( &(type = subjob) (label = "a") (count = 1) (uplink_mbps = 50) )
                 ( &(type = subjob) (label = "b") (count = 1) )
                 ( &(type = subjob) (label = "c") (count = 1) )
                 ( &(type = link) (between = "a" "b") (rtt_ms = 12.5) (jitter_ms = 1) (loss = 0.01) (bandwidth_mbps = 100) )
                 ( &(type = link) (between = "b" "c") (rtt_ms = 40) (direction = one_way) )
                """);

        WanEmulation wan = GridWanEmulation.of(grid);

        assertThat(wan.link("a", "b")).isEqualTo(new LinkProfile(12.5, 1, 0.01, 100));
        assertThat(wan.link("b", "a")).isEqualTo(new LinkProfile(12.5, 1, 0.01, 100));
        assertThat(wan.link("b", "c").rttMs()).isEqualTo(40);
        assertThat(wan.link("c", "b").rttMs()).as("one-way link: the way back is the default").isEqualTo(120);
        assertThat(wan.link("a", "c")).isEqualTo(LinkProfile.rtt(120));
        assertThat(wan.uplinkMbps()).containsExactly(java.util.Map.entry("a", 50.0));
    }

    @Test
    void theBundledEightSiteGridIsEmulatedWithItsSlowDirectLinks() {
        GridModel grid = GridConfigs.defaultGrid();

        WanEmulation wan = GridWanEmulation.of(grid);

        int sites = grid.sites().size();
        assertThat(wan.links()).hasSize(sites * (sites - 1));
        grid.sites().forEach(from -> grid.sites().stream().filter(to -> !to.equals(from)).forEach(to ->
                assertThat(wan.link(from.name(), to.name()).rttMs())
                        .isEqualTo(grid.linkBetween(from.name(), to.name()).rttMs())));
    }
}
