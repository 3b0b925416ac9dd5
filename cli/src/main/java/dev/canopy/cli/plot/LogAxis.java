package dev.canopy.cli.plot;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A logarithmic axis spanning whole decades around the data, mapping a value to a pixel
 * coordinate between {@code from} and {@code to} (which may run downwards, as an SVG y axis does).
 */
final class LogAxis {

    /** How decade labels read: plain numbers, or byte counts with decimal SI prefixes (1 k, 1 M). */
    enum Labels {
        NUMBER, BYTES
    }

    private final int lowDecade;
    private final int highDecade;
    private final double from;
    private final double to;

    private LogAxis(int lowDecade, int highDecade, double from, double to) {
        this.lowDecade = lowDecade;
        this.highDecade = highDecade;
        this.from = from;
        this.to = to;
    }

    /** The smallest whole-decade span holding {@code min..max} (both positive), at least one decade wide. */
    static LogAxis spanning(double min, double max, double from, double to) {
        if (!(min > 0) || !(max >= min) || Double.isInfinite(max)) {
            throw new IllegalArgumentException("a log axis needs 0 < min <= max, got " + min + ".." + max);
        }
        int low = (int) Math.floor(Math.log10(min) + 1e-9);
        int high = (int) Math.ceil(Math.log10(max) - 1e-9);
        return new LogAxis(low, Math.max(high, low + 1), from, to);
    }

    double pixel(double value) {
        double fraction = (Math.log10(value) - lowDecade) / (highDecade - lowDecade);
        return from + fraction * (to - from);
    }

    /** Every decade value on the axis, smallest first. */
    List<Double> decades() {
        List<Double> values = new ArrayList<>();
        for (int exponent = lowDecade; exponent <= highDecade; exponent++) {
            values.add(Math.pow(10, exponent));
        }
        return values;
    }

    /** The values 2..9 times each decade inside the axis: minor ticks. */
    List<Double> minorTicks() {
        List<Double> values = new ArrayList<>();
        for (int exponent = lowDecade; exponent < highDecade; exponent++) {
            for (int multiple = 2; multiple <= 9; multiple++) {
                values.add(multiple * Math.pow(10, exponent));
            }
        }
        return values;
    }

    static String label(double decade, Labels style) {
        int exponent = (int) Math.round(Math.log10(decade));
        if (style == Labels.BYTES && exponent >= 3) {
            String[] prefixes = {"k", "M", "G", "T"};
            int group = Math.min(exponent / 3, prefixes.length);
            return (long) Math.pow(10, exponent - 3 * group) + " " + prefixes[group - 1];
        }
        if (exponent >= 0) {
            return Long.toString((long) Math.pow(10, exponent));
        }
        return String.format(Locale.ROOT, "%." + (-exponent) + "f", decade);
    }
}
