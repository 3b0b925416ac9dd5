package dev.canopy.collectives.internal.segmentation;

import java.util.List;
import java.util.OptionalLong;

/**
 * Finds the scatter leap S (segmentation.md): the message size at which the median time jumps
 * well above the straight line through the smaller sizes, because the root's sends stop
 * overlapping and start to serialise.
 *
 * <p>For each size after the first two, the detector extrapolates the least-squares line through
 * the medians of all smaller sizes and measures the ratio of the observed median to that
 * prediction. S is the size with the largest ratio, if that ratio reaches {@code minimumLeap}.
 */
public final class LeapDetector {

    private final double minimumLeap;

    /** {@code minimumLeap}: how many times above the linear prediction counts as a leap, e.g. 1.8. */
    public LeapDetector(double minimumLeap) {
        if (!(minimumLeap > 1)) {
            throw new IllegalArgumentException("minimum leap " + minimumLeap + " must be above 1");
        }
        this.minimumLeap = minimumLeap;
    }

    public OptionalLong detect(SizeTimeCurve curve) {
        List<SizeTimeCurve.Point> points = curve.points();
        long bestSize = -1;
        double bestRatio = minimumLeap;
        for (int k = 2; k < points.size(); k++) {
            double predicted = LinearFit.ofMedians(points.subList(0, k)).at(points.get(k).bytes());
            double floor = Math.max(predicted, points.get(k - 1).median());
            double ratio = points.get(k).median() / Math.max(floor, Double.MIN_NORMAL);
            if (ratio >= bestRatio) {
                bestRatio = ratio;
                bestSize = points.get(k).bytes();
            }
        }
        return bestSize < 0 ? OptionalLong.empty() : OptionalLong.of(bestSize);
    }
}
