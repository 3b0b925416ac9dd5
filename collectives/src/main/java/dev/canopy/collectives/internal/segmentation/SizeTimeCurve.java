package dev.canopy.collectives.internal.segmentation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Measured completion times of one operation against message size: several samples per size,
 * sizes in increasing order. The input of the leap and escalation detectors and of the printed
 * calibration curves.
 */
public final class SizeTimeCurve {

    /** The samples measured at one message size, sorted ascending. */
    public record Point(long bytes, double[] sortedMillis) {

        public double median() {
            return quantile(0.5);
        }

        /** The q-quantile (0 to 1) by nearest rank. */
        public double quantile(double q) {
            int index = (int) Math.min(sortedMillis.length - 1, Math.max(0, Math.ceil(q * sortedMillis.length) - 1));
            return sortedMillis[index];
        }

        public int samples() {
            return sortedMillis.length;
        }
    }

    private final List<Point> points;

    private SizeTimeCurve(List<Point> points) {
        this.points = List.copyOf(points);
    }

    /** Builds a curve from (bytes, milliseconds) samples in any order. */
    public static SizeTimeCurve of(List<TimingSample> samples) {
        Map<Long, List<Double>> bySize = new TreeMap<>();
        for (TimingSample sample : samples) {
            bySize.computeIfAbsent(sample.bytes(), size -> new ArrayList<>()).add(sample.millis());
        }
        List<Point> points = new ArrayList<>();
        bySize.forEach((bytes, times) -> {
            double[] sorted = times.stream().mapToDouble(Double::doubleValue).toArray();
            Arrays.sort(sorted);
            points.add(new Point(bytes, sorted));
        });
        return new SizeTimeCurve(points);
    }

    public List<Point> points() {
        return points;
    }
}
