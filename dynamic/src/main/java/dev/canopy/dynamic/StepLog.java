package dev.canopy.dynamic;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The moments of one operation, named, in milliseconds since its start: for a debug line that says where its time
 * went (the start in wall-clock time, so that the lines of different processes, a spawn's parents and children, line
 * up) and for timelines such as a spawn's. Thread-safe.
 */
public final class StepLog {

    /** The step of making an inter-communicator at which the two roots have agreed its key. */
    public static final String KEY_AGREED = "key agreed";
    /** The step at which the group has the key (its root's broadcast). */
    public static final String KEY_SHARED = "key shared";

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private final long startNanos = System.nanoTime();
    private final Instant start = Instant.now();
    private final Map<String, Double> steps = new LinkedHashMap<>();

    /** Notes that {@code step} is done now. */
    public void mark(String step) {
        mark(step, System.nanoTime());
    }

    /** Notes that {@code step} was done at {@code nanoTime} ({@link System#nanoTime()}). */
    public synchronized void mark(String step, long nanoTime) {
        steps.put(step, (nanoTime - startNanos) / 1e6);
    }

    /** When {@code step} was done, in ms since the start; empty when it was not (yet). */
    public synchronized OptionalDouble millis(String step) {
        Double at = steps.get(step);
        return at == null ? OptionalDouble.empty() : OptionalDouble.of(at);
    }

    @Override
    public synchronized String toString() {
        StringBuilder line = new StringBuilder("from " + CLOCK.format(start) + " UTC (ms)");
        steps.forEach((step, at) -> line.append(String.format(Locale.ROOT, ", %s +%.1f", step, at)));
        return line.toString();
    }
}
