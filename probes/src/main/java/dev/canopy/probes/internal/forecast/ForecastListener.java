package dev.canopy.probes.internal.forecast;

/**
 * Receives forecast changes: a link's first forecast, a move of its forecast beyond the configured threshold,
 * and its turning stale or fresh again. Called on the thread that owns the {@link LinkForecasts} (the probe
 * service's event loop); it must return quickly and never block.
 */
@FunctionalInterface
public interface ForecastListener {

    void onForecast(LinkForecast change);
}
