package dev.canopy.cli.plot;

import dev.canopy.cli.plot.SvgPlot.Point;
import dev.canopy.cli.plot.SvgPlot.Series;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The latency-against-size charts of the bench commands, drawn from their JSON reports. */
public final class BenchPlots {

    private BenchPlots() {
    }

    /**
     * {@code bench collectives}: the median completion per algorithm (and exchange route and pipelining
     * when the run compared them), and the topology's lower bound for each size.
     */
    public static SvgPlot collectives(JsonObject report) {
        Map<String, List<Point>> medians = new LinkedHashMap<>();
        Map<Integer, Double> lowerBound = new TreeMap<>();
        for (Object entry : report.getJsonArray("results")) {
            JsonObject row = (JsonObject) entry;
            int bytes = row.getInteger("bytes");
            medians.computeIfAbsent(variantName(row), name -> new ArrayList<>()).add(new Point(bytes, row.getDouble("median_ms")));
            Double bound = row.getDouble("lower_bound_ms");
            if (bound != null) {
                lowerBound.put(bytes, bound);
            }
        }
        SvgPlot plot = new SvgPlot(report.getString("op") + " on " + fileName(report.getString("config")) + ", "
                + report.getInteger("processes") + " processes, root " + report.getString("root_site"),
                "message size (bytes)", true, "median completion (ms)");
        medians.forEach((name, points) -> plot.add(Series.measured(name, points)));
        if (!lowerBound.isEmpty()) {
            plot.add(Series.bound("lower bound", lowerBound.entrySet().stream()
                    .map(e -> new Point(e.getKey(), e.getValue())).toList()));
        }
        return plot;
    }

    /** {@code bench multicast}: the median single-bcast latency per method. */
    public static SvgPlot multicast(JsonObject report) {
        Map<String, List<Point>> medians = new LinkedHashMap<>();
        for (Object entry : report.getJsonArray("results")) {
            JsonObject row = (JsonObject) entry;
            medians.computeIfAbsent(row.getString("method"), name -> new ArrayList<>())
                    .add(new Point(row.getInteger("bytes"), row.getDouble("latency_median_ms")));
        }
        SvgPlot plot = new SvgPlot("bcast to " + report.getInteger("members") + " members, " + report.getString("fabric")
                + " fabric", "message size (bytes)", true, "median latency (ms)");
        medians.forEach((name, points) -> plot.add(Series.measured(name, points)));
        return plot;
    }

    /** {@code bench segmentation}: native and optimised p90 of scatter and gather against size, thresholds in the title. */
    public static SvgPlot segmentation(JsonObject report) {
        Map<String, List<Point>> p90s = new LinkedHashMap<>();
        for (Object entry : report.getJsonArray("results")) {
            JsonObject row = (JsonObject) entry;
            long bytes = row.getLong("bytes");
            p90s.computeIfAbsent(row.getString("op") + " native", name -> new ArrayList<>())
                    .add(new Point(bytes, row.getDouble("native_p90_ms")));
            p90s.computeIfAbsent(row.getString("op") + " optimised", name -> new ArrayList<>())
                    .add(new Point(bytes, row.getDouble("optimised_p90_ms")));
        }
        JsonObject link = report.getJsonObject("link");
        JsonObject thresholds = report.getJsonObject("thresholds");
        SvgPlot plot = new SvgPlot(report.getInteger("hosts") + " hosts, " + link.getInteger("rate_mbit") + " Mbit/s, queue "
                + link.getInteger("queue_packets") + " pkts; S=" + thresholds.getValue("S") + " M1=" + thresholds.getValue("M1")
                + " M2=" + thresholds.getValue("M2"), "message size per process (bytes)", true, "p90 time on the root (ms)");
        p90s.forEach((name, points) -> plot.add(Series.measured(name, points)));
        return plot;
    }

    private static String variantName(JsonObject row) {
        StringBuilder name = new StringBuilder(row.getString("algorithm"));
        if (row.getString("exchange") != null) {
            name.append(' ').append(row.getString("exchange"));
        }
        if (row.getString("pipeline") != null) {
            name.append(" pipeline ").append(row.getString("pipeline"));
        }
        return name.toString();
    }

    private static String fileName(String path) {
        int slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
        return path.substring(slash + 1);
    }
}
