package dev.canopy.dynamic.spawn;

import dev.canopy.core.node.JobId;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.probes.internal.measure.SiteForecastWatcher;
import dev.canopy.probes.internal.measure.SitePairForecast;
import dev.canopy.processes.SiteLatency;
import io.vertx.core.Context;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;

/**
 * The latency from the parent root's site to each site, for automatic placement: the RTT the job's probes
 * measured and published (with live plans, {@link SiteForecastWatcher}), else the level file's configured RTT.
 */
final class RootLatency implements SiteLatency, AutoCloseable {

    private final GridModel grid;
    private final String rootSite;
    private final Optional<SiteForecastWatcher> watcher;
    private volatile List<SitePairForecast> measured = List.of();

    /** Follows {@code probedJob}'s forecasts, if given. */
    RootLatency(Context context, CuratorFramework client, Optional<JobId> probedJob, GridModel grid, String rootSite) {
        this.grid = grid;
        this.rootSite = rootSite;
        this.watcher = probedJob.map(job -> new SiteForecastWatcher(context, client, job));
        watcher.ifPresent(started -> {
            started.onChange(forecasts -> measured = List.copyOf(forecasts));
            started.start();
        });
    }

    @Override
    public double fromRootTo(String site) {
        if (site.equals(rootSite)) {
            return 0;
        }
        return measured.stream()
                .filter(pair -> pair.a().equals(rootSite) && pair.b().equals(site) || pair.a().equals(site) && pair.b().equals(rootSite))
                .mapToDouble(SitePairForecast::rttMs)
                .findFirst()
                .orElseGet(() -> grid.site(site).isPresent() ? grid.linkBetween(rootSite, site).rttMs() : Double.MAX_VALUE);
    }

    @Override
    public void close() {
        watcher.ifPresent(SiteForecastWatcher::close);
    }
}
