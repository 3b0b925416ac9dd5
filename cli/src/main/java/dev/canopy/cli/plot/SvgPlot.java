package dev.canopy.cli.plot;

import static dev.canopy.cli.plot.SvgText.coordinate;
import static dev.canopy.cli.plot.SvgText.escape;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A log-log line chart as a standalone SVG document: decade ticks and labels on both axes, one
 * polyline with markers per measured series, dashed lines for bounds, a legend and a title.
 * Points whose x or y is not positive cannot sit on a log axis and are left out.
 */
public final class SvgPlot {

    /** Okabe-Ito colours: distinguishable with the common colour-vision deficiencies. */
    private static final String[] COLOURS = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442",
        "#000000"};
    private static final String BOUND_COLOUR = "#555555";
    private static final int WIDTH = 760;
    private static final int HEIGHT = 480;
    private static final int LEFT = 80;
    private static final int RIGHT = 200;
    private static final int TOP = 48;
    private static final int BOTTOM = 60;

    /** One data point. */
    public record Point(double x, double y) {
    }

    /** A named line; a bound is drawn dashed, without markers. */
    public record Series(String name, List<Point> points, boolean bound) {
        public Series {
            points = List.copyOf(points);
        }

        public static Series measured(String name, List<Point> points) {
            return new Series(name, points, false);
        }

        public static Series bound(String name, List<Point> points) {
            return new Series(name, points, true);
        }

        List<Point> plottable() {
            return points.stream().filter(p -> p.x() > 0 && p.y() > 0 && Double.isFinite(p.x()) && Double.isFinite(p.y()))
                    .sorted(Comparator.comparingDouble(Point::x)).toList();
        }
    }

    private final String title;
    private final String xLabel;
    private final LogAxis.Labels xStyle;
    private final String yLabel;
    private final List<Series> series = new ArrayList<>();

    public SvgPlot(String title, String xLabel, boolean xInBytes, String yLabel) {
        this.title = title;
        this.xLabel = xLabel;
        this.xStyle = xInBytes ? LogAxis.Labels.BYTES : LogAxis.Labels.NUMBER;
        this.yLabel = yLabel;
    }

    public SvgPlot add(Series line) {
        series.add(line);
        return this;
    }

    /** The document; {@link IllegalStateException} when no series has a plottable point. */
    public String render() {
        List<Point> all = series.stream().flatMap(line -> line.plottable().stream()).toList();
        if (all.isEmpty()) {
            throw new IllegalStateException("nothing to plot: no series has a point with positive x and y");
        }
        LogAxis x = LogAxis.spanning(all.stream().mapToDouble(Point::x).min().orElseThrow(),
                all.stream().mapToDouble(Point::x).max().orElseThrow(), LEFT, WIDTH - RIGHT);
        LogAxis y = LogAxis.spanning(all.stream().mapToDouble(Point::y).min().orElseThrow(),
                all.stream().mapToDouble(Point::y).max().orElseThrow(), HEIGHT - BOTTOM, TOP);
        StringBuilder svg = new StringBuilder();
        svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
                .append("\" font-family=\"sans-serif\" font-size=\"12\">\n")
                .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n")
                .append("<text x=\"").append(WIDTH / 2).append("\" y=\"26\" text-anchor=\"middle\" font-size=\"15\">")
                .append(escape(title)).append("</text>\n");
        appendAxes(svg, x, y);
        List<String> strokes = strokes();
        for (int i = 0; i < series.size(); i++) {
            appendSeries(svg, series.get(i), strokes.get(i), x, y);
        }
        appendLegend(svg, strokes);
        return svg.append("</svg>\n").toString();
    }

    private void appendAxes(StringBuilder svg, LogAxis x, LogAxis y) {
        double left = LEFT;
        double right = WIDTH - RIGHT;
        double top = TOP;
        double bottom = HEIGHT - BOTTOM;
        svg.append("<g class=\"grid\" stroke=\"#eeeeee\">\n");
        for (double minor : x.minorTicks()) {
            line(svg, x.pixel(minor), top, x.pixel(minor), bottom);
        }
        for (double minor : y.minorTicks()) {
            line(svg, left, y.pixel(minor), right, y.pixel(minor));
        }
        svg.append("</g>\n<g class=\"ticks\" stroke=\"#cccccc\">\n");
        for (double decade : x.decades()) {
            line(svg, x.pixel(decade), top, x.pixel(decade), bottom);
        }
        for (double decade : y.decades()) {
            line(svg, left, y.pixel(decade), right, y.pixel(decade));
        }
        svg.append("</g>\n<g class=\"tick-labels\" fill=\"#333333\">\n");
        for (double decade : x.decades()) {
            svg.append("<text x=\"").append(coordinate(x.pixel(decade))).append("\" y=\"").append(coordinate(bottom + 18))
                    .append("\" text-anchor=\"middle\">").append(escape(LogAxis.label(decade, xStyle))).append("</text>\n");
        }
        for (double decade : y.decades()) {
            svg.append("<text x=\"").append(coordinate(left - 8)).append("\" y=\"").append(coordinate(y.pixel(decade) + 4))
                    .append("\" text-anchor=\"end\">").append(escape(LogAxis.label(decade, LogAxis.Labels.NUMBER)))
                    .append("</text>\n");
        }
        svg.append("</g>\n")
                .append("<rect x=\"").append(LEFT).append("\" y=\"").append(TOP).append("\" width=\"").append(WIDTH - RIGHT - LEFT)
                .append("\" height=\"").append(HEIGHT - BOTTOM - TOP).append("\" fill=\"none\" stroke=\"#333333\"/>\n")
                .append("<text x=\"").append(coordinate((left + right) / 2)).append("\" y=\"").append(HEIGHT - 16)
                .append("\" text-anchor=\"middle\">").append(escape(xLabel)).append("</text>\n")
                .append("<text transform=\"translate(22 ").append(coordinate((top + bottom) / 2))
                .append(") rotate(-90)\" text-anchor=\"middle\">").append(escape(yLabel)).append("</text>\n");
    }

    private static void appendSeries(StringBuilder svg, Series line, String stroke, LogAxis x, LogAxis y) {
        List<Point> points = line.plottable();
        svg.append("<g class=\"series\" data-name=\"").append(escape(line.name())).append("\">\n");
        if (!points.isEmpty()) {
            StringBuilder d = new StringBuilder();
            for (Point p : points) {
                d.append(d.length() == 0 ? "M" : " L").append(coordinate(x.pixel(p.x()))).append(',')
                        .append(coordinate(y.pixel(p.y())));
            }
            svg.append("<path class=\"series-line\" d=\"").append(d).append("\" fill=\"none\" stroke=\"").append(stroke)
                    .append("\" stroke-width=\"2\"").append(line.bound() ? " stroke-dasharray=\"6 4\"" : "").append("/>\n");
        }
        if (!line.bound()) {
            for (Point p : points) {
                svg.append("<circle cx=\"").append(coordinate(x.pixel(p.x()))).append("\" cy=\"")
                        .append(coordinate(y.pixel(p.y()))).append("\" r=\"3.5\" fill=\"").append(stroke).append("\"/>\n");
            }
        }
        svg.append("</g>\n");
    }

    /** Each series' colour: bounds grey, measured series taking the palette in turn. */
    private List<String> strokes() {
        List<String> strokes = new ArrayList<>();
        int colour = 0;
        for (Series line : series) {
            strokes.add(line.bound() ? BOUND_COLOUR : COLOURS[colour++ % COLOURS.length]);
        }
        return strokes;
    }

    private void appendLegend(StringBuilder svg, List<String> strokes) {
        double left = WIDTH - RIGHT + 16;
        double rowY = TOP + 10;
        svg.append("<g class=\"legend\">\n");
        for (int i = 0; i < series.size(); i++) {
            Series line = series.get(i);
            String stroke = strokes.get(i);
            svg.append("<line x1=\"").append(coordinate(left)).append("\" y1=\"").append(coordinate(rowY)).append("\" x2=\"")
                    .append(coordinate(left + 24)).append("\" y2=\"").append(coordinate(rowY)).append("\" stroke=\"").append(stroke)
                    .append("\" stroke-width=\"2\"").append(line.bound() ? " stroke-dasharray=\"6 4\"" : "").append("/>\n")
                    .append("<text x=\"").append(coordinate(left + 32)).append("\" y=\"").append(coordinate(rowY + 4))
                    .append("\">").append(escape(line.name())).append("</text>\n");
            rowY += 20;
        }
        svg.append("</g>\n");
    }

    private static void line(StringBuilder svg, double x1, double y1, double x2, double y2) {
        svg.append("<line x1=\"").append(coordinate(x1)).append("\" y1=\"").append(coordinate(y1)).append("\" x2=\"")
                .append(coordinate(x2)).append("\" y2=\"").append(coordinate(y2)).append("\"/>\n");
    }
}
