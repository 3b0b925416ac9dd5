package dev.canopy.probes.internal.measure;

import dev.canopy.core.node.JobId;
import io.vertx.core.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows every site summary of a job in ZooKeeper, for a consumer that needs the forecasts of all site pairs
 * and not only its own node's links (the topology plan leader). Each representative publishes the pairs it
 * probes ({@link SiteSummaryPublisher}); this watcher merges them and calls its listeners with the whole
 * current list whenever a summary appears, changes or goes. Curator's events are posted to {@code context};
 * listeners run there and must not block.
 */
public final class SiteForecastWatcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SiteForecastWatcher.class);

    private final Context context;
    private final CuratorCache cache;
    private final String root;
    private final List<Consumer<List<SitePairForecast>>> listeners = new CopyOnWriteArrayList<>();
    // Owned by the context.
    private final Map<String, SiteSummary> bySite = new TreeMap<>();

    public SiteForecastWatcher(Context context, CuratorFramework client, JobId job) {
        this.context = context;
        this.root = SiteSummaryPublisher.SUMMARY;
        this.cache = CuratorCache.build(client.usingNamespace("canopy/jobs/" + job.name()), root);
        cache.listenable().addListener(CuratorCacheListener.builder()
                .forCreatesAndChanges((before, after) -> changed(after))
                .forDeletes(this::deleted)
                .build());
    }

    /** Receives the merged forecasts of every published site pair after each change. */
    public void onChange(Consumer<List<SitePairForecast>> listener) {
        listeners.add(listener);
    }

    public void start() {
        cache.start();
    }

    @Override
    public void close() {
        cache.close();
    }

    private void changed(ChildData data) {
        if (isSummary(data)) {
            context.runOnContext(v -> {
                try {
                    bySite.put(data.getPath(), SiteSummary.fromJson(data.getData(), data.getPath()));
                    publish();
                } catch (IllegalArgumentException e) {
                    LOG.warn("ignoring a probe summary: {}", e.getMessage());
                }
            });
        }
    }

    private void deleted(ChildData data) {
        if (isSummary(data)) {
            context.runOnContext(v -> {
                if (bySite.remove(data.getPath()) != null) {
                    publish();
                }
            });
        }
    }

    private boolean isSummary(ChildData data) {
        return data.getPath().startsWith(root + "/") && data.getData() != null;
    }

    private void publish() {
        List<SitePairForecast> pairs = new ArrayList<>();
        bySite.values().forEach(summary -> pairs.addAll(summary.pairs()));
        List<SitePairForecast> snapshot = List.copyOf(pairs);
        listeners.forEach(listener -> listener.accept(snapshot));
    }
}
