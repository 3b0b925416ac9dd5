package dev.canopy.probes.internal.forecast;

/**
 * How links are forecast.
 *
 * @param historyCapacity samples kept per link and metric (at least the standard family's largest window)
 * @param ranking the error by which the best forecaster is chosen
 * @param stalePeriods probe periods without a sample after which a link is marked stale
 * @param notifyRelativeChange subscribers hear of a forecast only when it moved by more than this fraction of the
 *     last value they heard (0 to hear every sample)
 */
public record ForecastSettings(int historyCapacity, ErrorMetric ranking, int stalePeriods,
                               double notifyRelativeChange) {

    /**
     * 64 samples, ranked by mean absolute error, stale after 5 periods, subscribers told of 2 % moves. Probe noise
     * is one-sided (queueing, scheduling delays, a cold JVM's first samples): ranked by squared error, mean-type
     * forecasters win and carry the noise's average into the forecast; ranked by absolute error, median-type
     * forecasters win and track the path's base round trip. Both errors are kept and reported either way.
     */
    public static final ForecastSettings DEFAULTS = new ForecastSettings(64, ErrorMetric.MEAN_ABSOLUTE, 5, 0.02);

    public ForecastSettings {
        if (historyCapacity < ForecasterFamily.LARGEST_STANDARD_WINDOW) {
            throw new IllegalArgumentException("forecast history of " + historyCapacity
                    + " samples is too short: keep at least " + ForecasterFamily.LARGEST_STANDARD_WINDOW);
        }
        if (ranking == null) {
            throw new IllegalArgumentException("forecast ranking must be MEAN_SQUARED or MEAN_ABSOLUTE");
        }
        if (stalePeriods < 1) {
            throw new IllegalArgumentException("stale after " + stalePeriods + " periods: must be at least 1");
        }
        if (!(notifyRelativeChange >= 0 && notifyRelativeChange < 1)) {
            throw new IllegalArgumentException("notify threshold " + notifyRelativeChange
                    + " must be a fraction in [0, 1)");
        }
    }

    public ForecastSettings withStalePeriods(int periods) {
        return new ForecastSettings(historyCapacity, ranking, periods, notifyRelativeChange);
    }

    public ForecastSettings withRanking(ErrorMetric metric) {
        return new ForecastSettings(historyCapacity, metric, stalePeriods, notifyRelativeChange);
    }

    public ForecastSettings withNotifyRelativeChange(double fraction) {
        return new ForecastSettings(historyCapacity, ranking, stalePeriods, fraction);
    }
}
