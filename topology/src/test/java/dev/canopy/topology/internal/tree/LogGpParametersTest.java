package dev.canopy.topology.internal.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.canopy.gridconfig.Level;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LogGpParametersTest {

    @Test
    void theCostModelCarriesTheMeasuredParameters() {
        LogGpParameters measured = new LogGpParameters(0.05, 0.08, 1e-5, Map.of(Level.HOST, 0.1));
        CostModel cost = measured.costModel(1_000_000);
        assertThat(cost.sendCostMs()).isCloseTo(0.05 + 10, within(1e-9));
        assertThat(cost.withMessageBytes(1).sendCostMs()).as("small sends are held to the gap").isEqualTo(0.08);
        assertThat(measured.latencyMs(Level.HOST)).hasValue(0.1);
        assertThat(measured.latencyMs(Level.LAN)).isEmpty();
        assertThat(measured.bytesPerSecond()).isCloseTo(1e8, within(1.0));
        assertThat(LogGpParameters.DEFAULTS.bytesPerSecond()).isInfinite();
        assertThat(LogGpParameters.DEFAULTS.costModel(0)).isEqualTo(new CostModel(0.02, 0, 0, 0));
    }

    @Test
    void theTextIsInLevelOrderWhateverMapItCameFrom() {
        Map<Level, Double> hashed = new HashMap<>();
        for (Level level : Level.values()) {
            hashed.put(level, (double) level.ordinal());
        }
        // plans put the parameters' text into their epoch, which must be the same in every JVM
        assertThat(new LogGpParameters(0, 0, 0, hashed).toString())
                .contains("{HEAVY_WAN=0.0, LIGHT_WAN=1.0, LAN=2.0, CLUSTER=3.0, HOST=4.0}");
    }

    @Test
    void outOfRangeValuesAreRefusedNamingTheParameter() {
        assertThatThrownBy(() -> new LogGpParameters(-1, 0, 0, Map.of())).hasMessageContaining("o (overhead_ms)");
        assertThatThrownBy(() -> new LogGpParameters(0, Double.NaN, 0, Map.of())).hasMessageContaining("g (gap_ms)");
        assertThatThrownBy(() -> new LogGpParameters(0, 0, 2, Map.of())).hasMessageContaining("G (per_byte_ms)");
        assertThatThrownBy(() -> new LogGpParameters(0, 0, 0, Map.of(Level.LAN, 1e9))).hasMessageContaining("L of level lan");
    }
}
