package dev.canopy.collectives.internal.leader;

import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import dev.canopy.probes.internal.Link;
import dev.canopy.probes.internal.Metric;
import dev.canopy.probes.internal.forecast.Forecast;
import dev.canopy.probes.internal.forecast.ForecastListener;
import dev.canopy.probes.internal.forecast.LinkForecast;
import dev.canopy.probes.internal.forecast.Subscription;
import dev.canopy.probes.internal.measure.SiteForecastWatcher;
import dev.canopy.probes.internal.measure.SitePairForecast;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A node's own forecasts completed with the site pairs every representative of the job publishes
 * ({@link SiteForecastWatcher}). A node probes only its own links, and each WAN link has one owner, so a plan
 * leader that planned with its own forecasts alone would see most WAN links only through the level file's
 * configured latencies. Here a pair of members in two sites takes its sites' published forecasts (round-trip
 * time, and bandwidth once measured), unless the node measures that link itself (its own forecast wins).
 *
 * <p>Owned by one context, which must be the watcher's and the own feed's (the node's): site changes and
 * {@link #all()} results are handled there.
 */
public final class SiteCompletedFeed implements ForecastFeed {

    private final ForecastFeed own;
    private final Map<String, List<NodeId>> membersBySite = new LinkedHashMap<>();
    // Owned by the context.
    private final List<ForecastListener> listeners = new ArrayList<>();
    private List<LinkForecast> fromSites = List.of();

    /** @param members the job's members, whose sites' forecasts are expanded to their pairs */
    public SiteCompletedFeed(ForecastFeed own, SiteForecastWatcher sites, Context context, List<Member> members) {
        this.own = own;
        for (Member member : members) {
            membersBySite.computeIfAbsent(member.coordinates().site(), site -> new ArrayList<>()).add(member.id());
        }
        sites.onChange(pairs -> context.runOnContext(v -> sitesChanged(pairs)));
    }

    @Override
    public Subscription subscribe(ForecastListener listener) {
        Subscription ownChanges = own.subscribe(listener);
        listeners.add(listener);
        return () -> {
            ownChanges.close();
            listeners.remove(listener);
        };
    }

    /** The site pairs' forecasts first, then the node's own, which therefore win for the links it measures. */
    @Override
    public Future<List<LinkForecast>> all() {
        return own.all().map(mine -> {
            List<LinkForecast> all = new ArrayList<>(fromSites);
            all.addAll(mine);
            return all;
        });
    }

    private void sitesChanged(List<SitePairForecast> pairs) {
        List<LinkForecast> expanded = new ArrayList<>();
        for (SitePairForecast pair : pairs) {
            String source = " (site " + pair.a() + "~" + pair.b() + ")";
            // A summary carries one error, the one its publisher ranks by; it stands in for both here.
            Forecast rtt = new Forecast(pair.rttMs(), pair.forecaster() + source, pair.errorMs() * pair.errorMs(),
                    pair.errorMs(), pair.samples());
            // Its bandwidth forecast comes without forecaster, error or sample count.
            Optional<Forecast> bandwidth = pair.bandwidthMbps().isPresent()
                    ? Optional.of(new Forecast(pair.bandwidthMbps().getAsDouble(), "published" + source, 0, 0, 0))
                    : Optional.empty();
            for (NodeId x : membersBySite.getOrDefault(pair.a(), List.of())) {
                for (NodeId y : membersBySite.getOrDefault(pair.b(), List.of())) {
                    Link link = Link.between(x, y);
                    expanded.add(new LinkForecast(link, Metric.ROUND_TRIP_TIME, pair.state(), rtt, 0));
                    bandwidth.ifPresent(b -> expanded.add(new LinkForecast(link, Metric.BANDWIDTH, pair.state(), b, 0)));
                }
            }
        }
        fromSites = List.copyOf(expanded);
        if (!expanded.isEmpty()) {
            // One change is enough: the leader re-evaluates on the whole list.
            List.copyOf(listeners).forEach(listener -> listener.onForecast(expanded.get(0)));
        }
    }
}
