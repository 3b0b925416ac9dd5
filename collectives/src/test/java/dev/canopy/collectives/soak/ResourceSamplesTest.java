package dev.canopy.collectives.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The soak run's flatness judgement: noise and warm-up pass, steady growth does not. */
class ResourceSamplesTest {

    private static final long MIB = 1 << 20;

    @Test
    void aNoisyPlateauAfterWarmUpIsFlat() {
        Random random = new Random(7);
        List<Long> heap = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            long warmUp = i < 5 ? -20 * MIB : 0;
            heap.add(100 * MIB + warmUp + (long) (random.nextGaussian() * 5 * MIB) + (i % 7 == 0 ? 30 * MIB : 0));
        }
        assertThat(ResourceSamples.growth(heap, 0.10, 8 * MIB, "heap bytes")).isEmpty();
    }

    @Test
    void steadyGrowthIsReportedWithBothMedians() {
        List<Long> heap = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            heap.add(100 * MIB + i * 4 * MIB);
        }
        assertThat(ResourceSamples.growth(heap, 0.10, 8 * MIB, "heap bytes"))
                .startsWith("heap bytes grew: median of the last third")
                .contains("median of the second third");
    }

    @Test
    void leakedFileDescriptorsAreReported() {
        List<Long> files = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            files.add(600L + i * 5);
        }
        assertThat(ResourceSamples.growth(files, 0, 16, "open file descriptors")).contains("grew");
        assertThat(ResourceSamples.growth(List.of(600L, 600L, 601L, 600L, 599L, 600L), 0, 16, "open file descriptors"))
                .isEmpty();
    }

    @Test
    void tooFewSamplesCannotPass() {
        assertThat(ResourceSamples.growth(List.of(1L, 1L, 1L), 0, 0, "heap bytes")).contains("at least 6");
    }

    @Test
    void medianOfEvenAndOddCounts() {
        assertThat(ResourceSamples.median(List.of(5L, 1L, 3L))).isEqualTo(3);
        assertThat(ResourceSamples.median(List.of(4L, 1L, 3L, 2L))).isEqualTo(2);
    }
}
