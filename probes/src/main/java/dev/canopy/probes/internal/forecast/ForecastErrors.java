package dev.canopy.probes.internal.forecast;

/** The running error totals of one forecaster on one series. */
final class ForecastErrors {

    private long predictions;
    private double squaredSum;
    private double absoluteSum;

    void score(double predicted, double actual) {
        double miss = actual - predicted;
        predictions++;
        squaredSum += miss * miss;
        absoluteSum += Math.abs(miss);
    }

    double meanSquared() {
        return predictions == 0 ? 0 : squaredSum / predictions;
    }

    double meanAbsolute() {
        return predictions == 0 ? 0 : absoluteSum / predictions;
    }

    double mean(ErrorMetric metric) {
        return switch (metric) {
            case MEAN_SQUARED -> meanSquared();
            case MEAN_ABSOLUTE -> meanAbsolute();
        };
    }
}
