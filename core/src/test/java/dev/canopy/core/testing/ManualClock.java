package dev.canopy.core.testing;

import dev.canopy.core.internal.emulation.NanoClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link NanoClock} that moves only when the test moves it: expiry, timeouts and rates are tested without
 * sleeping. The one test clock of the code base (probes and collectives use it through core's test-jar).
 * Thread-safe, so code under test may read it on an event loop while the test thread moves it.
 */
public final class ManualClock implements NanoClock {

    private final AtomicLong nanos;

    /** Starts at 0. */
    public ManualClock() {
        this(0);
    }

    /** Starts at {@code startNanos}, for code that treats 0 as "never". */
    public ManualClock(long startNanos) {
        this.nanos = new AtomicLong(startNanos);
    }

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    public void advance(Duration by) {
        advanceNanos(by.toNanos());
    }

    public void advanceNanos(long by) {
        if (by < 0) {
            throw new IllegalArgumentException("a monotonic clock cannot move back (by " + by + " ns)");
        }
        nanos.addAndGet(by);
    }

    /** Moves the clock to {@code to}, which must not be earlier than now. */
    public void setNanos(long to) {
        nanos.updateAndGet(now -> {
            if (to < now) {
                throw new IllegalArgumentException("a monotonic clock cannot move back (from " + now + " to " + to
                        + " ns)");
            }
            return to;
        });
    }
}
