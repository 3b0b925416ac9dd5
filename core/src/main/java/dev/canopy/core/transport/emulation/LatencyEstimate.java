package dev.canopy.core.transport.emulation;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A running estimate of a latency the emulator adds without meaning to (a thread hand-off, the
 * real loopback hop). Each sample moves it a quarter of the way towards the sample, by at most
 * {@link #MAX_STEP_NANOS}, so it tracks the typical value and an outlier (a GC pause, a
 * descheduled thread) barely moves it. Lock-free; shared by the nodes of one emulator.
 */
final class LatencyEstimate {

    static final long MAX_NANOS = 5_000_000L;
    static final long MAX_STEP_NANOS = 50_000L;

    private final AtomicLong estimate = new AtomicLong();

    long nanos() {
        return estimate.get();
    }

    void record(long sampleNanos) {
        estimate.getAndUpdate(current -> {
            long step = Math.max(-MAX_STEP_NANOS, Math.min(MAX_STEP_NANOS, (sampleNanos - current) / 4));
            return Math.max(0, Math.min(MAX_NANOS, current + step));
        });
    }
}
