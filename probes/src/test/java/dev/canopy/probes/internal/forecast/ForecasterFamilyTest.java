package dev.canopy.probes.internal.forecast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ForecasterFamilyTest {

    private static final long SEED = 42;

    @Test
    void scoresEachForecasterOnlyOnPredictionsMadeBeforeTheSample() {
        ForecasterFamily family = new ForecasterFamily(8, List.of(new LastValue()), ErrorMetric.MEAN_SQUARED);
        for (double sample : new double[] {1, 2, 3, 4}) {
            family.record(sample);
        }
        Forecast forecast = family.best().orElseThrow();
        // last-value predicted 1, 2, 3 for 2, 3, 4: three misses of exactly 1.
        assertThat(forecast.value()).isEqualTo(4);
        assertThat(forecast.meanSquaredError()).isEqualTo(1);
        assertThat(forecast.meanAbsoluteError()).isEqualTo(1);
        assertThat(forecast.samples()).isEqualTo(4);
    }

    @Test
    void reportsTheForecasterWithTheLowestErrorSoFar() {
        ForecasterFamily family = new ForecasterFamily(8,
                List.of(new LastValue(), new SlidingWindowMedian(3)), ErrorMetric.MEAN_SQUARED);
        for (double sample : new double[] {10, 10, 90, 10, 10, 90, 10, 10}) {
            family.record(sample);
        }
        Forecast best = family.best().orElseThrow();
        assertThat(best.forecaster()).isEqualTo("median-3");
        assertThat(best.value()).isEqualTo(10);
        assertThat(family.all()).extracting(Forecast::forecaster).containsExactly("last-value", "median-3");
        assertThat(family.all().get(0).meanSquaredError()).isGreaterThan(best.meanSquaredError());
    }

    @Test
    void followsAStepChangeWithinABoundedNumberOfSamples() {
        Random random = new Random(SEED);
        ForecasterFamily family = ForecasterFamily.standard(64, ErrorMetric.MEAN_SQUARED);
        for (int i = 0; i < 500; i++) {
            family.record(20 + random.nextGaussian() * 0.3);
        }
        assertThat(family.best().orElseThrow().value()).isBetween(19.0, 21.0);
        int samplesToFollow = 0;
        do {
            family.record(60 + random.nextGaussian() * 0.3);
            samplesToFollow++;
        } while (Math.abs(family.best().orElseThrow().value() - 60) > 1 && samplesToFollow < 100);
        assertThat(samplesToFollow).as("samples after the step until within 1 ms of the new level (seed %d)", SEED)
                .isLessThanOrEqualTo(6);
    }

    @Test
    void aMedianTypeForecasterWinsOnASpikyLink() {
        // Queueing delay: mostly close to the base RTT, now and then a spike far above it, and the base moves
        // between two routes from time to time (a mean over all history would sit between them).
        for (ErrorMetric ranking : ErrorMetric.values()) {
            Random random = new Random(SEED);
            ForecasterFamily family = ForecasterFamily.standard(64, ranking);
            double base = 30;
            for (int i = 1; i <= 3100; i++) {
                double spike = random.nextDouble() < 0.02 ? 100 + random.nextDouble() * 200 : 0;
                family.record(base + random.nextGaussian() * 0.2 + spike);
                if (i % 300 == 0) {
                    base = base == 30 ? 50 : 30;
                }
            }
            Forecast best = family.best().orElseThrow();
            assertThat(best.forecaster()).as("winner by %s among %s (seed %d)", ranking, family.all(), SEED)
                    .contains("median");
            assertThat(best.value()).as("forecast on the base of the last 100 samples").isBetween(29.0, 31.0);
        }
    }

    @Test
    void refusesAFamilyItCouldNotReportOn() {
        assertThatThrownBy(() -> new ForecasterFamily(8, List.of(), ErrorMetric.MEAN_SQUARED))
                .hasMessageContaining("at least one forecaster");
        assertThatThrownBy(() -> new ForecasterFamily(8, List.of(new LastValue(), new LastValue()),
                ErrorMetric.MEAN_SQUARED)).hasMessageContaining("both named last-value");
        assertThatThrownBy(() -> ForecasterFamily.standard(10, ErrorMetric.MEAN_SQUARED))
                .hasMessageContaining("keep at least 30");
        assertThat(new ForecasterFamily(8, List.of(new LastValue()), ErrorMetric.MEAN_SQUARED).best()).isEmpty();
    }
}
