package dev.canopy.collectives.internal.segmentation;

import java.util.List;

/** Least-squares line time = intercept + slope * bytes through the medians of some points. */
record LinearFit(double intercept, double slope) {

    static LinearFit ofMedians(List<SizeTimeCurve.Point> points) {
        int n = points.size();
        double meanX = 0;
        double meanY = 0;
        for (SizeTimeCurve.Point point : points) {
            meanX += point.bytes();
            meanY += point.median();
        }
        meanX /= n;
        meanY /= n;
        double covariance = 0;
        double variance = 0;
        for (SizeTimeCurve.Point point : points) {
            covariance += (point.bytes() - meanX) * (point.median() - meanY);
            variance += (point.bytes() - meanX) * (point.bytes() - meanX);
        }
        double slope = variance == 0 ? 0 : Math.max(0, covariance / variance);
        return new LinearFit(meanY - slope * meanX, slope);
    }

    double at(long bytes) {
        return intercept + slope * bytes;
    }
}
