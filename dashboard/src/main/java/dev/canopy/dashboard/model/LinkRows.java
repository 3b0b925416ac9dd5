package dev.canopy.dashboard.model;

import dev.canopy.core.internal.emulation.GridWanEmulation;
import dev.canopy.core.internal.emulation.WanEmulation;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.probes.internal.measure.SitePairForecast;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The site-pair table: for every unordered pair of the members' sites, the configured round trip (the level
 * file's, as the WAN emulation imposes it), the latest measured one (where a source measured it), the probes'
 * forecast with the forecaster chosen and its error, and bandwidth where measured.
 */
public final class LinkRows {

    private final GridModel grid;
    private final WanEmulation configured;

    public LinkRows(GridModel grid) {
        this.grid = grid;
        this.configured = GridWanEmulation.of(grid);
    }

    /** One row per unordered pair of sites, in the sites' rank order. */
    public JsonObject toJson(DashboardState state) {
        List<String> sites = state.snapshot().sites();
        JsonArray pairs = new JsonArray();
        for (int i = 0; i < sites.size(); i++) {
            for (int j = i + 1; j < sites.size(); j++) {
                pairs.add(row(sites.get(i), sites.get(j), state));
            }
        }
        return new JsonObject().put("sites", new JsonArray(sites)).put("pairs", pairs);
    }

    private JsonObject row(String a, String b, DashboardState state) {
        JsonObject row = new JsonObject().put("a", a).put("b", b);
        row.put("configured_rtt_ms", configuredRttMs(a, b).isPresent() ? configuredRttMs(a, b).getAsDouble() : null);
        OptionalDouble measured = state.measured().rttMs(a, b);
        row.put("measured_rtt_ms", measured.isPresent() ? measured.getAsDouble() : null);
        Optional<SitePairForecast> forecast = state.forecasts().stream().filter(f -> f.joins(a, b)).findFirst();
        row.put("forecast_rtt_ms", forecast.map(SitePairForecast::rttMs).orElse(null));
        row.put("forecaster", forecast.map(SitePairForecast::forecaster).orElse(null));
        row.put("error_ms", forecast.map(SitePairForecast::errorMs).orElse(null));
        row.put("samples", forecast.map(SitePairForecast::samples).orElse(null));
        row.put("state", forecast.map(f -> f.state().name().toLowerCase(Locale.ROOT)).orElse(null));
        row.put("bandwidth_mbps", forecast.filter(f -> f.bandwidthMbps().isPresent())
                .map(f -> f.bandwidthMbps().getAsDouble()).orElse(null));
        return row;
    }

    /** The configured round trip, when the level file names both sites. */
    public OptionalDouble configuredRttMs(String a, String b) {
        if (grid.site(a).isEmpty() || grid.site(b).isEmpty()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(configured.roundTripMs(a, b));
    }
}
