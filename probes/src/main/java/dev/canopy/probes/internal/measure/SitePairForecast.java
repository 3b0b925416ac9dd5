package dev.canopy.probes.internal.measure;

import dev.canopy.probes.internal.forecast.LinkState;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The forecast between two sites, as measured between their representatives.
 *
 * @param a the site of the representative that probes the pair
 * @param b the other site
 * @param rttMs forecast round-trip time
 * @param errorMs the chosen forecaster's error so far (root mean squared or mean absolute, as ranked)
 * @param forecaster the chosen forecaster's name
 * @param samples round-trip samples the forecast rests on
 * @param bandwidthMbps forecast throughput, when a bandwidth probe has succeeded
 */
public record SitePairForecast(String a, String b, LinkState state, double rttMs, double errorMs, String forecaster,
                               long samples, OptionalDouble bandwidthMbps) {

    public SitePairForecast {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(forecaster, "forecaster");
        Objects.requireNonNull(bandwidthMbps, "bandwidthMbps");
    }

    /** Whether this is the pair of {@code one} and {@code other}, in either order. */
    public boolean joins(String one, String other) {
        return a.equals(one) && b.equals(other) || a.equals(other) && b.equals(one);
    }
}
