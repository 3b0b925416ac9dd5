package dev.canopy.collectives.internal.calibration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.internal.segmentation.EscalationRange;
import dev.canopy.collectives.internal.segmentation.SegmentationThresholds;
import dev.canopy.collectives.internal.segmentation.SizeTimeCurve;
import dev.canopy.collectives.internal.segmentation.TimingSample;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class KeepImprovementsTest {

    private static final SegmentationThresholds DETECTED =
            new SegmentationThresholds(OptionalLong.of(4096), Optional.of(new EscalationRange(1024, 2048)));

    @Test
    void thresholdsThatMadeTheirOperationFasterAreKeptAndOthersDropped() {
        Calibration.Result before = new Calibration.Result(curve(10, 10, 50), curve(90, 90, 5), DETECTED);
        Calibration.Result fasterScatterSlowerGather = new Calibration.Result(curve(10, 10, 20), curve(300, 300, 5), DETECTED);
        assertThat(Calibration.keepImprovements(before, fasterScatterSlowerGather))
                .isEqualTo(new SegmentationThresholds(OptionalLong.of(4096), Optional.empty()));
        Calibration.Result fasterGather = new Calibration.Result(curve(10, 10, 80), curve(20, 20, 5), DETECTED);
        assertThat(Calibration.keepImprovements(before, fasterGather))
                .isEqualTo(new SegmentationThresholds(OptionalLong.empty(), DETECTED.gatherEscalation()));
    }

    /** Medians at 1024, 2048 and 4096 bytes. */
    private static SizeTimeCurve curve(double at1024, double at2048, double at4096) {
        return SizeTimeCurve.of(List.of(new TimingSample(1024, at1024), new TimingSample(2048, at2048),
                new TimingSample(4096, at4096)));
    }
}
