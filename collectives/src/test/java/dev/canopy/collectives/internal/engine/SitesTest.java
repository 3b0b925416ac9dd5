package dev.canopy.collectives.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SitesTest {

    private final Sites sites = Sites.of(List.of("w0/a", "w1/b", "w0/a", "w1/b", "w0/c", "w0/a"));

    @Test
    void sitesAreNumberedByTheirLowestRankWhichCoordinatesThem() {
        assertThat(sites.count()).isEqualTo(3);
        assertThat(sites.members(0)).containsExactly(0, 2, 5);
        assertThat(sites.members(1)).containsExactly(1, 3);
        assertThat(sites.members(2)).containsExactly(4);
        assertThat(sites.coordinator(1)).isEqualTo(1);
        assertThat(sites.coordinator(2)).isEqualTo(4);
        assertThat(sites.siteOf(5)).isZero();
    }

    @Test
    void ranksShareASiteOnlyWhenTheirSiteNamesAreEqual() {
        assertThat(sites.sameSite(0, 5)).isTrue();
        assertThat(sites.sameSite(1, 2)).isFalse();
    }
}
