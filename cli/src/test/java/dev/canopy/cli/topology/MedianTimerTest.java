package dev.canopy.cli.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class MedianTimerTest {

    @Test
    void reportsTheMedianAndMinimumOfTheMeasuredRunsOnly() {
        AtomicLong clock = new AtomicLong();
        long[] durationsMs = {100, 100, 7, 3, 5, 9, 1};
        AtomicInteger run = new AtomicInteger();
        MedianTimer timer = new MedianTimer(clock::get, 2, 5);
        MedianTimer.Timing timing = timer.time(() -> clock.addAndGet(durationsMs[run.getAndIncrement()] * 1_000_000));
        assertThat(run.get()).isEqualTo(7);
        assertThat(timing.medianMs()).isEqualTo(5.0);
        assertThat(timing.minMs()).isEqualTo(1.0);
        assertThat(timing.runs()).isEqualTo(5);
    }

    @Test
    void needsAtLeastOneMeasuredRun() {
        assertThatThrownBy(() -> new MedianTimer(System::nanoTime, 0, 0)).hasMessageContaining(">= 1 measured run");
    }
}
