package dev.canopy.collectives.plan;

import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.probes.internal.forecast.LinkForecast;
import dev.canopy.topology.internal.graph.BandwidthSource;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The level file's bandwidths ({@link GridBandwidths}) completed with the bandwidth prober's forecasts where the
 * file gives none: a site pair without {@code bandwidth_mbps} takes the fresh forecast measured between members of
 * the two sites (either direction: a probe times one transfer, and a summary carries one value per pair), and a site
 * without {@code uplink_mbps} takes the highest forecast of its pairs as its uplink, since everything the site sends
 * reached that rate through it (a lower bound of its capacity: k transfers over it at once are then charged k
 * times). Where neither the file nor a probe says anything, the bandwidth is unlimited.
 *
 * <p>Immutable; {@link #toString} lists every forecast value it uses, the same text in every JVM, for a plan's epoch.
 */
public final class ProbedBandwidths implements BandwidthSource {

    private final GridModel grid;
    private final GridBandwidths configured;
    private final SitePairBandwidths probed;
    /** The highest pair forecast of every site that has one. */
    private final Map<String, Double> siteMbps = new TreeMap<>();

    private ProbedBandwidths(GridModel grid, Map<String, Coordinates> coordinates, SitePairBandwidths probed) {
        this.grid = grid;
        this.configured = new GridBandwidths(grid, coordinates);
        this.probed = probed;
        for (SitePairBandwidths.Pair pair : probed.pairs()) {
            siteMbps.merge(pair.a(), pair.mbps(), Math::max);
            siteMbps.merge(pair.b(), pair.mbps(), Math::max);
        }
    }

    /**
     * @param coordinates every member's coordinates by {@link TopologyPlan#nameOf}
     * @param forecasts the forecasts a node holds (its own and the published site pairs); round-trip times, stale
     *     forecasts and links to non-members are ignored; several forecasts of one site pair give their highest
     */
    public static ProbedBandwidths of(GridModel grid, Map<String, Coordinates> coordinates, List<LinkForecast> forecasts) {
        return of(grid, coordinates, SitePairBandwidths.of(coordinates, forecasts));
    }

    /** The file's bandwidths completed with frozen forecasts, e.g. those a live plan's epoch carries. */
    public static ProbedBandwidths of(GridModel grid, Map<String, Coordinates> coordinates, SitePairBandwidths probed) {
        return new ProbedBandwidths(grid, coordinates, probed);
    }

    @Override
    public String siteOf(String node) {
        return configured.siteOf(node);
    }

    @Override
    public String hostOf(String node) {
        return configured.hostOf(node);
    }

    @Override
    public double nicMbps(String host) {
        return configured.nicMbps(host);
    }

    @Override
    public double uplinkMbps(String site) {
        double fromFile = configured.uplinkMbps(site);
        return Double.isFinite(fromFile) ? fromFile : siteMbps.getOrDefault(site, Double.POSITIVE_INFINITY);
    }

    @Override
    public double linkMbps(String fromSite, String toSite) {
        if (grid.linkBetween(fromSite, toSite).bandwidthMbps().isPresent()) {
            return configured.linkMbps(fromSite, toSite);
        }
        return probed.mbps(fromSite, toSite).orElse(Double.POSITIVE_INFINITY);
    }

    /** Whether any forecast is used: without one these are the file's bandwidths alone. */
    public boolean measuredAny() {
        return !probed.isEmpty();
    }

    /** The forecasts used, e.g. {@code probed[ams~ber=180.0]}; the same text in every JVM. */
    @Override
    public String toString() {
        return probed.toString();
    }
}
