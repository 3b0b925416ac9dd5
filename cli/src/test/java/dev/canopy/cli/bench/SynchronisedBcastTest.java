package dev.canopy.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.topology.internal.tree.TreeAlgorithm;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SynchronisedBcastTest {

    @AfterEach
    void clearProperties() {
        List.of("sizes", "iterations", "algorithm").forEach(name -> System.clearProperty("canopy.bcast." + name));
    }

    @Test
    void theDefaultsAreMpibenchs() {
        SynchronisedBcast.Settings settings = SynchronisedBcast.Settings.fromSystemProperties();

        assertThat(settings.sizes()).containsExactly(2, 1024, 65536, 1048576);
        assertThat(settings.iterations()).isEqualTo(20);
        assertThat(settings.guardMs()).isEqualTo(1000);
        assertThat(settings.algorithm()).isEmpty();
    }

    @Test
    void badSettingsNameTheProperty() {
        System.setProperty("canopy.bcast.sizes", "2,0");
        assertThatThrownBy(SynchronisedBcast.Settings::fromSystemProperties)
                .hasMessage("canopy.bcast.sizes: '0' is not a positive whole number");
        System.setProperty("canopy.bcast.sizes", "2");
        System.setProperty("canopy.bcast.algorithm", "fastest");
        assertThatThrownBy(SynchronisedBcast.Settings::fromSystemProperties)
                .hasMessageStartingWith("canopy.bcast.algorithm 'fastest' is not a tree algorithm; choose from");
    }

    @Test
    void theResultLineGivesMedianMinimumAndMaximumOfSync() {
        SynchronisedBcast.Settings settings = new SynchronisedBcast.Settings(List.of(2), 4, 0, 1000,
                Optional.of(TreeAlgorithm.fromConfigName("spt").orElseThrow()), 0);

        String line = SynchronisedBcast.resultLine(2, settings, new double[] {130, 114.5, 200, 120}, new double[] {0.1, 0.3, 0.2, 0.4});

        assertThat(line).isEqualTo("RESULT size=2 algorithm=spt iterations=4 sync_median_ms=125.0 sync_min_ms=114.5"
                + " sync_max_ms=200.0 skew_median_ms=0.25");
    }
}
