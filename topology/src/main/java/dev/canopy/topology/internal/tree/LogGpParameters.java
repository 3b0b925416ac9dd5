package dev.canopy.topology.internal.tree;

import dev.canopy.gridconfig.Level;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The LogGP parameters of a deployment, as {@code canopy calibrate} measures them on it: the per-message
 * overhead {@code o} a sender spends on a send, the gap {@code g} between consecutive sends of small
 * messages, {@code G} per byte, and the one-way latency {@code L} between two processes whose closest
 * shared level is each {@link Level} (what one hop costs beyond the sender's {@code max(o + m G, g)}).
 * Plans and the runtime's pipelining use them instead of constants; {@link #DEFAULTS} until measured.
 *
 * @param overheadMs per-send overhead o, ms
 * @param gapMs minimum time between two small sends of one sender, g, ms
 * @param perByteMs G, ms per byte (the inverse of one sender's throughput)
 * @param latencyMs one-way L per link level that was measured (a level without a pair of processes is absent)
 */
public record LogGpParameters(double overheadMs, double gapMs, double perByteMs, Map<Level, Double> latencyMs) {

    /** What plans assume before anything was measured: 20 µs per send, no gap, no per-byte cost, no latencies. */
    public static final LogGpParameters DEFAULTS = new LogGpParameters(0.02, 0, 0, Map.of());

    /** A parameter above this many ms (o, g, L) is a measurement gone wrong, not a network. */
    public static final double MAX_MS = 60_000;
    /** G above 1 ms per byte (8 kb/s) is no network a collective runs on. */
    public static final double MAX_PER_BYTE_MS = 1;

    public LogGpParameters {
        requireIn(overheadMs, MAX_MS, "o (overhead_ms)");
        requireIn(gapMs, MAX_MS, "g (gap_ms)");
        requireIn(perByteMs, MAX_PER_BYTE_MS, "G (per_byte_ms)");
        Objects.requireNonNull(latencyMs, "latencyMs");
        EnumMap<Level, Double> copy = new EnumMap<>(Level.class);
        latencyMs.forEach((level, value) -> {
            requireIn(Objects.requireNonNull(value, "latency"), MAX_MS, "L of level " + level.configName());
            copy.put(Objects.requireNonNull(level, "level"), value);
        });
        latencyMs = Collections.unmodifiableMap(copy); // level order: the same text in every JVM (Map.copyOf's is not)
    }

    private static void requireIn(double value, double max, String name) {
        if (!Double.isFinite(value) || value < 0 || value > max) {
            throw new IllegalArgumentException(name + " must be a number of ms from 0 to " + max + ", got " + value);
        }
    }

    /** The measured latency of a link whose closest shared level is {@code level}; empty when not measured. */
    public OptionalDouble latencyMs(Level level) {
        Double value = latencyMs.get(level);
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    /** The cost model of these parameters for messages of {@code messageBytes}, without bandwidths or pipelining. */
    public CostModel costModel(long messageBytes) {
        return new CostModel(overheadMs, gapMs, perByteMs, messageBytes);
    }

    /** One sender's throughput in bytes per second, {@code 1 / G}; positive infinity when G is 0. */
    public double bytesPerSecond() {
        return bytesPerSecond(perByteMs);
    }

    /** The throughput in bytes per second of {@code perByteMs} ms per byte; positive infinity for 0. */
    public static double bytesPerSecond(double perByteMs) {
        return perByteMs == 0 ? Double.POSITIVE_INFINITY : 1000 / perByteMs;
    }
}
