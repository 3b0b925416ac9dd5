package dev.canopy.cli.bench.segmentation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.internal.calibration.Calibration;
import dev.canopy.collectives.internal.segmentation.EscalationRange;
import dev.canopy.collectives.internal.segmentation.SizeTimeCurve;
import dev.canopy.collectives.internal.segmentation.TimingSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The bench's escalation detector on a loaded machine: jitter of tens of ms (scheduling, 16 JVMs on 2 cores) is not
 * incast; retransmission timeouts (+200 ms, Linux's minimum RTO) at the medium sizes are.
 */
class SegmentationRunTest {

    private static final SegmentationRun RUN = new SegmentationRun(List.of(1024, 4096, 65536, 1048576), 20, 20, 100, 0.1);

    @Test
    void timeoutsAtMediumSizesAreEscalationsJitterIsNot() {
        Random random = new Random(7);
        List<TimingSample> samples = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            // every size: a heavy-tailed jitter of up to 3x its time
            samples.add(new TimingSample(1024, 10 + 20 * random.nextDouble() * random.nextDouble()));
            samples.add(new TimingSample(1048576, 1300 + 400 * random.nextDouble()));
            // 4 KiB and 64 KiB: 40 % of the gathers wait out one or two retransmission timeouts
            samples.add(new TimingSample(4096, 12 + random.nextDouble() * 8 + (i % 5 < 2 ? 200 * (1 + i % 2) : 0)));
            samples.add(new TimingSample(65536, 90 + random.nextDouble() * 20 + (i % 5 < 2 ? 200 : 0)));
        }
        SizeTimeCurve gather = SizeTimeCurve.of(samples);

        assertThat(RUN.escalation().detect(gather)).contains(new EscalationRange(4096, 65536));
        assertThat(Calibration.ESCALATION.detect(gather)).as("calibrate's detector takes the jitter for escalations")
                .isNotEqualTo(Optional.of(new EscalationRange(4096, 65536)));
    }

    @Test
    void itTravelsToTheMembersAsJson() {
        assertThat(SegmentationRun.fromJson(RUN.toJson())).isEqualTo(RUN);
    }
}
