package dev.canopy.core.internal.security;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How many times the transport refused input from the wire, by {@link Rejection}. Written on the
 * transport's context, readable from any thread.
 */
public final class SecurityCounters {

    private final AtomicLongArray counts = new AtomicLongArray(Rejection.values().length);

    public void count(Rejection rejection) {
        counts.incrementAndGet(rejection.ordinal());
    }

    public long get(Rejection rejection) {
        return counts.get(rejection.ordinal());
    }

    /** Every rejection of any kind. */
    public long total() {
        long total = 0;
        for (int i = 0; i < counts.length(); i++) {
            total += counts.get(i);
        }
        return total;
    }

    /** The non-zero counts. */
    public Map<Rejection, Long> snapshot() {
        Map<Rejection, Long> snapshot = new EnumMap<>(Rejection.class);
        for (Rejection rejection : Rejection.values()) {
            long count = get(rejection);
            if (count > 0) {
                snapshot.put(rejection, count);
            }
        }
        return snapshot;
    }

    @Override
    public String toString() {
        return "SecurityCounters" + snapshot();
    }
}
