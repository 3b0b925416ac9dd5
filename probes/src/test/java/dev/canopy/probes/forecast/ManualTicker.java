package dev.canopy.probes.forecast;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;

/** A clock that moves only when a test moves it. */
final class ManualTicker implements Ticker {

    private long nanos;

    @Override
    public long read() {
        return nanos;
    }

    void advance(Duration duration) {
        nanos += duration.toNanos();
    }
}
