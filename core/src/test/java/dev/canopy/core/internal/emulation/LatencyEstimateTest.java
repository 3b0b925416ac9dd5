package dev.canopy.core.internal.emulation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The latency estimate is the median of the last 64 samples, fed by the test: no timing involved. */
class LatencyEstimateTest {

    private static final long MICROS = 1_000L;

    private final LatencyEstimate estimate = new LatencyEstimate();

    @Test
    void startsAtZeroAndIsTheMedianOfTheSamplesSoFar() {
        assertThat(estimate.nanos()).isZero();

        estimate.record(300 * MICROS);
        assertThat(estimate.nanos()).isEqualTo(300 * MICROS);
        estimate.record(100 * MICROS);
        assertThat(estimate.nanos()).as("lower middle of two").isEqualTo(100 * MICROS);
        estimate.record(200 * MICROS);
        assertThat(estimate.nanos()).isEqualTo(200 * MICROS);
    }

    @Test
    void aLongTailDoesNotPullItUpAsItPullsUpAMean() {
        // The shape of hand-off latencies on a saturated machine: mostly about 100 µs, a third far out.
        long[] samples = new long[LatencyEstimate.WINDOW];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = i % 3 == 0 ? (2_000 + 40 * i) * MICROS : (90 + i % 20) * MICROS;
        }
        for (long sample : samples) {
            estimate.record(sample);
        }

        double mean = Arrays.stream(samples).average().orElseThrow();
        assertThat(mean).as("what a mean would subtract").isGreaterThan(900 * MICROS);
        assertThat(estimate.nanos()).isBetween(90 * MICROS, 110 * MICROS);
    }

    @Test
    void itFollowsAChangeOfLoadWithinHalfAWindow() {
        feed(LatencyEstimate.WINDOW, 100 * MICROS);

        feed(LatencyEstimate.WINDOW / 2 - 1, 800 * MICROS);
        assertThat(estimate.nanos()).as("not yet half the window").isEqualTo(100 * MICROS);
        feed(1, 800 * MICROS);
        assertThat(estimate.nanos()).as("half the window").isEqualTo(100 * MICROS);
        feed(1, 800 * MICROS);
        assertThat(estimate.nanos()).as("over half").isEqualTo(800 * MICROS);

        feed(LatencyEstimate.WINDOW, 50 * MICROS);
        assertThat(estimate.nanos()).as("old samples leave the window").isEqualTo(50 * MICROS);
    }

    @Test
    void samplesAreClampedToZeroAndTheMaximum() {
        feed(LatencyEstimate.WINDOW, 60 * LatencyEstimate.MAX_NANOS);
        assertThat(estimate.nanos()).isEqualTo(LatencyEstimate.MAX_NANOS);

        feed(LatencyEstimate.WINDOW, -5 * MICROS);
        assertThat(estimate.nanos()).isZero();
    }

    @Test
    void matchesASortedMedianOnSeededRandomSamples() {
        SplittableRandom random = new SplittableRandom(7);
        List<Long> window = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            long sample = random.nextLong(0, 3_000) * MICROS;
            estimate.record(sample);
            window.add(sample);
            if (window.size() > LatencyEstimate.WINDOW) {
                window.remove(0);
            }
            List<Long> sorted = window.stream().sorted().toList();
            assertThat(estimate.nanos()).as("after %d samples (seed 7)", i + 1)
                    .isEqualTo(sorted.get((sorted.size() - 1) / 2));
        }
    }

    @Test
    void threadsRecordingTogetherLoseNothingThatMatters() throws InterruptedException {
        int threads = 4;
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            Thread recorder = new Thread(() -> {
                feed(10_000, 250 * MICROS);
                done.countDown();
            });
            recorder.start();
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        estimate.record(250 * MICROS); // the last recomputation sees every sample
        assertThat(estimate.nanos()).isEqualTo(250 * MICROS);
    }

    private void feed(int count, long sampleNanos) {
        for (int i = 0; i < count; i++) {
            estimate.record(sampleNanos);
        }
    }
}
