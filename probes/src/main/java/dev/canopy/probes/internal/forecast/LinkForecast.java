package dev.canopy.probes.internal.forecast;

import dev.canopy.probes.internal.Link;
import dev.canopy.probes.internal.Metric;

/**
 * The forecast of one metric on one link, as published to subscribers.
 *
 * @param forecast the best forecaster's forecast when the link last had a sample
 * @param lost probes on this link that got no answer in time, since this node started probing it
 */
public record LinkForecast(Link link, Metric metric, LinkState state, Forecast forecast, long lost) {

    public boolean isFresh() {
        return state == LinkState.FRESH;
    }
}
