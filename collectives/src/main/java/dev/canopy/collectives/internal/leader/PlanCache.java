package dev.canopy.collectives.internal.leader;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.node.JobId;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's plans by epoch: {@link #plan(long)} returns the plan of exactly that epoch, from a bounded
 * Caffeine cache or fetched once from ZooKeeper (concurrent requests share one fetch). A collective
 * that carries epoch E therefore runs with E's plan on every member even after newer epochs appear;
 * published plans never change, so a cached plan never goes out of date.
 *
 * <p>A {@link CuratorCache} on {@code plans/current} tells the node when a new epoch is published:
 * {@link #latestEpoch()} follows it and {@link #onNewEpoch} listeners hear it (on the context), so the
 * next collective can carry the new epoch. Lifecycle LATENT, STARTED, CLOSED by compare-and-set.
 */
public final class PlanCache {

    private static final Logger LOG = LoggerFactory.getLogger(PlanCache.class);

    private final AtomicReference<Lifecycle> state = new AtomicReference<>(Lifecycle.LATENT);
    private final Context context;
    private final PlanStore store;
    private final CuratorCache currentWatch;
    private final AsyncCache<Long, PublishedPlan> plans;
    // Owned by the context.
    private final List<Handler<Long>> listeners = new ArrayList<>();
    // Written on the context only; readable from any thread.
    private volatile long latestEpoch;

    /** @param capacity how many epochs to keep; older ones are fetched again if a collective still asks */
    public PlanCache(Context context, CuratorFramework client, JobId job, PlanStore store, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("plan cache capacity " + capacity + " must be at least 1");
        }
        this.context = context;
        this.store = store;
        this.plans = Caffeine.newBuilder().maximumSize(capacity).buildAsync();
        this.currentWatch = CuratorCache.build(PlanStore.namespaced(client, job), PlanStore.CURRENT,
                CuratorCache.Options.SINGLE_NODE_CACHE);
        this.currentWatch.listenable().addListener(CuratorCacheListener.builder()
                .forCreatesAndChanges((before, after) -> currentChanged(after))
                .build());
    }

    public Lifecycle state() {
        return state.get();
    }

    /** Starts watching {@code plans/current}; the watch runs on Curator's threads and posts to the context. */
    public void start() {
        if (!state.compareAndSet(Lifecycle.LATENT, Lifecycle.STARTED)) {
            throw new IllegalStateException("plan cache already " + state.get() + "; create a new one");
        }
        currentWatch.start();
    }

    /** The plan of {@code epoch}, cached or fetched; completes on the context. */
    public Future<PublishedPlan> plan(long epoch) {
        if (state.get() == Lifecycle.CLOSED) {
            return Future.failedFuture(new IllegalStateException("plan cache is closed; epoch " + epoch + " not served"));
        }
        return Future.fromCompletionStage(plans.get(epoch, (key, executor) ->
                store.read(key).toCompletionStage().toCompletableFuture()), context);
    }

    /** The highest epoch the watch has seen, 0 before any. */
    public long latestEpoch() {
        return latestEpoch;
    }

    /** Called on the context with each new highest epoch. */
    public void onNewEpoch(Handler<Long> listener) {
        context.runOnContext(v -> listeners.add(listener));
    }

    public void close() {
        if (state.getAndSet(Lifecycle.CLOSED) == Lifecycle.STARTED) {
            currentWatch.close();
        }
        plans.synchronous().invalidateAll();
    }

    private void currentChanged(ChildData data) {
        long epoch;
        try {
            epoch = PlanStore.decodeEpoch(data.getData(), data.getPath());
        } catch (MalformedZnodeException e) {
            LOG.error("ignoring the plan pointer: {}", e.getMessage());
            return;
        }
        context.runOnContext(v -> {
            if (epoch > latestEpoch) {
                latestEpoch = epoch;
                for (Handler<Long> listener : List.copyOf(listeners)) {
                    listener.handle(epoch);
                }
            }
        });
    }
}
