package dev.canopy.cli.probe;

import dev.canopy.cli.table.Column;
import dev.canopy.cli.table.TextTable;
import dev.canopy.core.internal.emulation.GridWanEmulation;
import dev.canopy.core.internal.emulation.WanEmulation;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.Site;
import dev.canopy.probes.internal.forecast.LinkState;
import dev.canopy.probes.internal.measure.ProbeStatistics;
import dev.canopy.probes.internal.measure.SitePairForecast;
import dev.canopy.probes.internal.measure.SiteSummary;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/** The result of {@code canopy probe}: every site pair's configured and forecast RTT, and the probe load. */
record ProbeReport(List<ProbeRow> rows, double messagesPerNodePerSecond, double busiestNodeMessagesPerSecond) {

    /** Joins the grid's configured links with the site summaries the representatives published. */
    static ProbeReport of(GridModel grid, List<SiteSummary> summaries, List<ProbeStatistics> statistics) {
        List<SitePairForecast> published = summaries.stream().flatMap(s -> s.pairs().stream()).toList();
        List<Site> sites = grid.sites();
        WanEmulation wan = GridWanEmulation.of(grid);
        List<ProbeRow> rows = new ArrayList<>();
        for (int i = 0; i < sites.size(); i++) {
            for (int j = i + 1; j < sites.size(); j++) {
                String a = sites.get(i).name();
                String b = sites.get(j).name();
                double configured = wan.roundTripMs(a, b);
                Optional<SitePairForecast> pair = published.stream().filter(p -> p.joins(a, b)).findFirst();
                rows.add(new ProbeRow(a, b, configured,
                        pair.map(p -> OptionalDouble.of(p.rttMs())).orElse(OptionalDouble.empty()),
                        pair.map(p -> OptionalDouble.of(p.errorMs())).orElse(OptionalDouble.empty()),
                        pair.map(SitePairForecast::forecaster), pair.map(SitePairForecast::samples).orElse(0L),
                        pair.map(p -> p.state() == LinkState.STALE).orElse(false)));
            }
        }
        double mean = statistics.stream().mapToDouble(ProbeStatistics::messagesPerSecond).average().orElse(0);
        double max = statistics.stream().mapToDouble(ProbeStatistics::messagesPerSecond).max().orElse(0);
        return new ProbeReport(rows, mean, max);
    }

    String table() {
        TextTable table = TextTable.of(Column.text("site a"), Column.text("site b"), Column.decimal("conf", "ms", 1),
                Column.decimal("fcst", "ms", 1), Column.decimal("err", "ms", 1), Column.text("forecaster"),
                Column.integer("samples", null));
        for (ProbeRow row : rows) {
            table.row(row.a(), row.b(), row.configuredRttMs(), boxed(row.forecastRttMs()), boxed(row.errorMs()),
                    row.forecaster().map(name -> name + (row.stale() ? " (stale)" : "")).orElse(null), row.samples());
        }
        StringBuilder out = new StringBuilder(table.render());
        out.append(String.format(Locale.ROOT, "probe messages per node per second: %.1f mean, %.1f busiest node%n",
                messagesPerNodePerSecond, busiestNodeMessagesPerSecond));
        return out.toString();
    }

    JsonObject json() {
        JsonArray pairs = new JsonArray();
        for (ProbeRow row : rows) {
            pairs.add(new JsonObject()
                    .put("a", row.a())
                    .put("b", row.b())
                    .put("configured_rtt_ms", row.configuredRttMs())
                    .put("forecast_rtt_ms", boxed(row.forecastRttMs()))
                    .put("error_ms", boxed(row.errorMs()))
                    .put("forecaster", row.forecaster().orElse(null))
                    .put("samples", row.samples()));
        }
        return new JsonObject().put("pairs", pairs).put("probe_messages_per_node_per_s", messagesPerNodePerSecond);
    }

    private static Double boxed(OptionalDouble value) {
        return value.isPresent() ? value.getAsDouble() : null;
    }
}
