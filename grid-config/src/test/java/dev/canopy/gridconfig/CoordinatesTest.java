package dev.canopy.gridconfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CoordinatesTest {

    private final Coordinates yonseiHost1 = new Coordinates("seoul", "yonsei", "ylan", "ycl", "y1");

    @Test
    void linkLevelIsTheCoarsestCoordinateThatDiffers() {
        assertThat(yonseiHost1.linkLevel(new Coordinates("daejeon", "kisti", "k", "k", "k1"))).isEqualTo(Level.HEAVY_WAN);
        assertThat(yonseiHost1.linkLevel(new Coordinates("seoul", "kut", "ylan", "ycl", "y1"))).isEqualTo(Level.LIGHT_WAN);
        assertThat(yonseiHost1.linkLevel(new Coordinates("seoul", "yonsei", "other", "ycl", "y1"))).isEqualTo(Level.LAN);
        assertThat(yonseiHost1.linkLevel(new Coordinates("seoul", "yonsei", "ylan", "other", "y1"))).isEqualTo(Level.LAN);
        assertThat(yonseiHost1.linkLevel(new Coordinates("seoul", "yonsei", "ylan", "ycl", "y2"))).isEqualTo(Level.CLUSTER);
        assertThat(yonseiHost1.linkLevel(yonseiHost1)).isEqualTo(Level.HOST);
    }

    @Test
    void groupKeysNestFromCoarseToFine() {
        Coordinates sameSiteOtherCluster = new Coordinates("seoul", "yonsei", "ylan", "other", "y1");
        assertThat(yonseiHost1.groupKey(Level.LAN)).isEqualTo(sameSiteOtherCluster.groupKey(Level.LAN));
        assertThat(yonseiHost1.groupKey(Level.CLUSTER)).isNotEqualTo(sameSiteOtherCluster.groupKey(Level.CLUSTER));
        assertThat(yonseiHost1.groupKey(Level.HEAVY_WAN)).isEmpty();
    }

    @Test
    void levelNamesParseIgnoringCaseAndUnderscores() {
        assertThat(Level.fromConfigName("Heavy_WAN")).contains(Level.HEAVY_WAN);
        assertThat(Level.fromConfigName("lightwan")).contains(Level.LIGHT_WAN);
        assertThat(Level.fromConfigName("fabric")).isEmpty();
        assertThat(Level.CLUSTER.configName()).isEqualTo("cluster");
    }

    @Test
    void blankCoordinateIsRejectedWithItsName() {
        assertThatThrownBy(() -> new Coordinates("w", " ", "l", "c", "h"))
                .hasMessageContaining("site");
    }
}
