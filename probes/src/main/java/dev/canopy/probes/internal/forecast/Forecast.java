package dev.canopy.probes.internal.forecast;

/**
 * The forecast of the next sample of a series by the forecaster that has done best on it so far.
 *
 * @param value the forecast, in the unit of the series (milliseconds for round-trip times)
 * @param forecaster the name of the forecaster that made it, e.g. {@code median-10}
 * @param meanSquaredError that forecaster's mean squared error over its predictions so far (unit squared)
 * @param meanAbsoluteError that forecaster's mean absolute error over the same predictions
 * @param samples how many samples the series has seen; the errors cover {@code samples - 1} predictions
 */
public record Forecast(double value, String forecaster, double meanSquaredError, double meanAbsoluteError,
                       long samples) {

    /** The square root of the mean squared error: a typical miss, in the unit of the series. */
    public double rootMeanSquaredError() {
        return Math.sqrt(meanSquaredError);
    }

    /** The error the family ranks forecasters by, in the unit of the series. */
    public double error(ErrorMetric metric) {
        return switch (metric) {
            case MEAN_SQUARED -> rootMeanSquaredError();
            case MEAN_ABSOLUTE -> meanAbsoluteError;
        };
    }
}
