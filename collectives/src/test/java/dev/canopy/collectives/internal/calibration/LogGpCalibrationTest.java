package dev.canopy.collectives.internal.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.topology.internal.tree.LogGpParameters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** LogGP measured on an emulated two-site grid (40 ms RTT between the sites, two processes per site). */
@Timeout(120)
class LogGpCalibrationTest {

    @Test
    void measuresEveryLevelRankZeroSharesAndTheSendCostsInsideItsSite() {
        GridModel grid = GridConfigs.loadBundled("two-site.rsl").orElseThrow();
        try (EmulatedGrid job = EmulatedGrid.start(grid, "loggp-test", 1)) {
            LogGpCalibration.Result result = LogGpCalibration.run(job.world(), 3);
            LogGpParameters measured = result.parameters();

            Level inside = job.world().get(0).member(0).coordinates().linkLevel(job.world().get(0).member(1).coordinates());
            assertThat(measured.latencyMs().keySet()).containsExactlyInAnyOrder(Level.HEAVY_WAN, inside);
            // the WAN emulation makes a message across the sites take 20 ms one way (within its accuracy, the
            // loaded machine's tail above); L is what a hop adds beyond its sender's cost
            double oneWay = result.measurements().getJsonObject("one_way_ms").getDouble("heavy_wan");
            assertThat(oneWay).isBetween(18.0, 100.0);
            assertThat(measured.latencyMs(Level.HEAVY_WAN).getAsDouble())
                    .isCloseTo(oneWay - Math.max(measured.overheadMs(), measured.gapMs()), within(1e-9));
            assertThat(measured.latencyMs(inside).getAsDouble()).isLessThan(measured.latencyMs(Level.HEAVY_WAN).getAsDouble());
            assertThat(measured.overheadMs()).isPositive();
            assertThat(measured.perByteMs()).as("1 MiB messages inside the site take measurable time").isPositive();
            assertThat(result.measurements().getJsonObject("partners").getInteger("heavy_wan")).isEqualTo(2);
        }
    }

    @Test
    void oneProcessHasNothingToMeasure() {
        GridModel grid = GridConfigs.parse("+ ( &(type = subjob) (label = \"alone\") (count = 1) )", "alone.rsl").orElseThrow();
        try (EmulatedGrid job = EmulatedGrid.start(grid, "loggp-alone", 1)) {
            assertThatThrownBy(() -> LogGpCalibration.run(job.world(), 3)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("at least two processes");
        }
    }
}
