package dev.canopy.dashboard.model;

import java.util.Map;
import java.util.OptionalDouble;

/**
 * Round trips measured between sites by something other than the probes (e.g. the demo's ping matrix):
 * the latest value per unordered site pair.
 */
public final class MeasuredRtts {

    public static final MeasuredRtts NONE = new MeasuredRtts(Map.of());

    private final Map<String, Double> rttMs;

    private MeasuredRtts(Map<String, Double> rttMs) {
        this.rttMs = Map.copyOf(rttMs);
    }

    /** @param rttMs round trip per {@link #key(String, String)} */
    public static MeasuredRtts of(Map<String, Double> rttMs) {
        return new MeasuredRtts(rttMs);
    }

    /** The key of the unordered pair of sites {@code a} and {@code b}. */
    public static String key(String a, String b) {
        return a.compareTo(b) <= 0 ? a + "~" + b : b + "~" + a;
    }

    public OptionalDouble rttMs(String a, String b) {
        Double value = rttMs.get(key(a, b));
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }
}
