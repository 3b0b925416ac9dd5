package dev.canopy.collectives.internal.leader;

import dev.canopy.probes.internal.Metric;
import dev.canopy.probes.internal.forecast.LinkForecast;
import dev.canopy.topology.internal.graph.LatencySource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The planner's latency input from the freshest forecasts: half the forecast round-trip time of every
 * FRESH link between members. A link that is STALE (no sample for the configured number of probe
 * periods) or was never probed takes the {@code fallback}'s value, normally the level file's configured
 * latency ({@link dev.canopy.collectives.plan.GridLatencies}): a stale forecast describes a past network,
 * while the configured value is the operator's standing estimate. Pass a fallback that answers
 * {@link LatencySource#UNMEASURED} to exclude such links instead; the planner then routes around them.
 */
public final class ForecastLatencies {

    private final LatencySource fallback;

    public ForecastLatencies(LatencySource fallback) {
        this.fallback = fallback;
    }

    /** @param forecasts every forecast the leader's node holds (other metrics and non-members are ignored) */
    public LatencySnapshot snapshot(List<String> members, List<LinkForecast> forecasts) {
        Map<String, Double> freshOneWayMs = new HashMap<>();
        for (LinkForecast forecast : forecasts) {
            if (forecast.isFresh() && forecast.metric() == Metric.ROUND_TRIP_TIME) {
                freshOneWayMs.put(key(forecast.link().a().value(), forecast.link().b().value()),
                        forecast.forecast().value() / 2);
            }
        }
        return LatencySnapshot.of(members, (from, to) -> {
            Double forecast = freshOneWayMs.get(key(from, to));
            return forecast != null ? forecast : fallback.oneWayMs(from, to);
        });
    }

    /** Links are undirected; the lower id comes first, as in {@link dev.canopy.probes.internal.Link}. */
    private static String key(String one, String other) {
        return one.compareTo(other) < 0 ? one + "\u0000" + other : other + "\u0000" + one;
    }
}
