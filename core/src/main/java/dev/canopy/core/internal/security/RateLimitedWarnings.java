package dev.canopy.core.internal.security;

import dev.canopy.core.internal.emulation.NanoClock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decides which warnings about hostile input reach the log: at most one per source (a remote host)
 * per interval, the next one saying how many were suppressed meanwhile. A flood of bad packets costs
 * a counter increment each, not a log line each. Remembers at most {@code maxSources} sources (the
 * least recently warned about are forgotten first).
 *
 * <p>Not thread-safe: owned by the transport's context.
 */
public final class RateLimitedWarnings {

    /** The verdict on one warning: {@link #emit} says whether to log it, {@link #suppressed} how many were not. */
    public record Decision(boolean emit, long suppressed) {
    }

    private static final class Source {
        long lastEmittedNanos;
        long suppressed;
    }

    private final long intervalNanos;
    private final NanoClock clock;
    private final Map<String, Source> sources;

    public RateLimitedWarnings(long intervalNanos, int maxSources, NanoClock clock) {
        this.intervalNanos = intervalNanos;
        this.clock = clock;
        this.sources = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Source> eldest) {
                return size() > maxSources;
            }
        };
    }

    /** Whether a warning about {@code source} may be logged now, and how many were suppressed before it. */
    public Decision attempt(String source) {
        long now = clock.nanoTime();
        Source state = sources.get(source);
        if (state == null) {
            state = new Source();
            state.lastEmittedNanos = now;
            sources.put(source, state);
            return new Decision(true, 0);
        }
        if (now - state.lastEmittedNanos >= intervalNanos) {
            long suppressed = state.suppressed;
            state.suppressed = 0;
            state.lastEmittedNanos = now;
            return new Decision(true, suppressed);
        }
        state.suppressed++;
        return new Decision(false, state.suppressed);
    }
}
