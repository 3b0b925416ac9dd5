package dev.canopy.probes.internal.forecast;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.probes.internal.Link;
import dev.canopy.probes.internal.Metric;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The forecasts of every probed link and metric of one node.
 *
 * <p>Each (link, metric) has its own {@link ForecasterFamily}. Its current forecast lives in a Caffeine cache
 * whose entry expires {@code stalePeriods} probe periods after the last sample (time from the injected
 * {@link NanoClock}, which is the cache's Caffeine {@code Ticker}). A link whose forecast has expired is not
 * dropped silently: {@link #expireStale} (called every probe tick, and by every reader) moves it to
 * {@link LinkState#STALE}, keeps its last forecast for reference and tells subscribers. A sample on a stale
 * link starts a new history: samples from before the silence say little about the link now.
 *
 * <p>Owned by one thread (the probe service's event loop): every method but {@link #subscribe} must be called
 * there, and listeners are called there.
 */
public final class LinkForecasts {

    private record Key(Link link, Metric metric) {
    }

    /** A cached forecast with the silence after which it expires. */
    private record FreshForecast(Forecast forecast, long staleAfterNanos) {
    }

    /** The history of one fresh link and what its subscribers last heard. */
    private static final class Series {
        final ForecasterFamily family;
        double lastNotifiedValue = Double.NaN;

        Series(ForecastSettings settings) {
            family = ForecasterFamily.standard(settings.historyCapacity(), settings.ranking());
        }
    }

    private final ForecastSettings settings;
    private final Cache<Key, FreshForecast> fresh;
    private final Map<Key, Series> histories = new HashMap<>();
    private final Map<Key, Forecast> stale = new HashMap<>();
    private final Map<Key, Long> lost = new HashMap<>();
    private final List<ForecastListener> listeners = new CopyOnWriteArrayList<>();

    public LinkForecasts(ForecastSettings settings, NanoClock clock) {
        this.settings = settings;
        this.fresh = Caffeine.newBuilder()
                .ticker(clock::nanoTime) // the one place Canopy's clock meets Caffeine's Ticker
                .executor(Runnable::run) // maintenance stays on the owning thread
                .expireAfter(new StaleAfterSilence())
                .build();
    }

    /**
     * Adds a measured sample and returns the link's new forecast. {@code period} is the link's current probe
     * period: the link turns stale after {@code stalePeriods} of them without a sample.
     */
    public LinkForecast record(Link link, Metric metric, double sample, Duration period) {
        if (!(sample >= 0) || Double.isInfinite(sample)) {
            throw new IllegalArgumentException("sample " + sample + " " + metric.unit() + " on link " + link
                    + " is not a non-negative finite measurement");
        }
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("probe period " + period + " of link " + link + " must be positive");
        }
        expireStale();
        Key key = new Key(link, metric);
        stale.remove(key);
        Series series = histories.get(key);
        boolean first = series == null;
        if (first) {
            series = new Series(settings);
            histories.put(key, series);
        }
        series.family.record(sample);
        Forecast forecast = series.family.best().orElseThrow();
        fresh.put(key, new FreshForecast(forecast, saturatedMultiply(period.toNanos(), settings.stalePeriods())));
        LinkForecast current = view(key, LinkState.FRESH, forecast);
        if (first || movedEnough(series, forecast)) {
            series.lastNotifiedValue = forecast.value();
            notifyListeners(current);
        }
        return current;
    }

    /** Counts a probe on the link that got no answer in time. Losses do not keep a link fresh. */
    public void recordLoss(Link link, Metric metric) {
        lost.merge(new Key(link, metric), 1L, Long::sum);
        expireStale();
    }

    /** The link's forecast, fresh or stale; empty if it never had a sample. */
    public Optional<LinkForecast> forecast(Link link, Metric metric) {
        expireStale();
        Key key = new Key(link, metric);
        FreshForecast current = fresh.getIfPresent(key);
        if (current != null) {
            return Optional.of(view(key, LinkState.FRESH, current.forecast()));
        }
        return Optional.ofNullable(stale.get(key)).map(last -> view(key, LinkState.STALE, last));
    }

    /** Every link and metric that ever had a sample, by link then metric. */
    public List<LinkForecast> all() {
        expireStale();
        List<LinkForecast> all = new ArrayList<>();
        fresh.asMap().forEach((key, current) -> all.add(view(key, LinkState.FRESH, current.forecast())));
        stale.forEach((key, last) -> all.add(view(key, LinkState.STALE, last)));
        all.sort(Comparator.comparing((LinkForecast f) -> f.link().a())
                .thenComparing(f -> f.link().b())
                .thenComparing(LinkForecast::metric));
        return all;
    }

    /** Moves every link whose cached forecast has expired to STALE and tells subscribers. */
    public void expireStale() {
        for (Iterator<Map.Entry<Key, Series>> it = histories.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, Series> entry = it.next();
            Key key = entry.getKey();
            if (fresh.getIfPresent(key) == null) {
                it.remove();
                Forecast last = entry.getValue().family.best().orElseThrow();
                stale.put(key, last);
                notifyListeners(view(key, LinkState.STALE, last));
            }
        }
        fresh.cleanUp();
    }

    /** Registers a listener for forecast changes; may be called from any thread. */
    public Subscription subscribe(ForecastListener listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    private boolean movedEnough(Series series, Forecast forecast) {
        double last = series.lastNotifiedValue;
        return Math.abs(forecast.value() - last) > settings.notifyRelativeChange() * Math.abs(last);
    }

    private LinkForecast view(Key key, LinkState state, Forecast forecast) {
        return new LinkForecast(key.link(), key.metric(), state, forecast, lost.getOrDefault(key, 0L));
    }

    private void notifyListeners(LinkForecast change) {
        for (ForecastListener listener : listeners) {
            listener.onForecast(change);
        }
    }

    private static long saturatedMultiply(long nanos, int times) {
        long product = nanos * times;
        return product / times == nanos ? product : Long.MAX_VALUE;
    }

    /** A forecast lives for its stale-after time from its sample; reading it does not extend it. */
    private static final class StaleAfterSilence implements Expiry<Key, FreshForecast> {

        @Override
        public long expireAfterCreate(Key key, FreshForecast value, long currentTime) {
            return value.staleAfterNanos();
        }

        @Override
        public long expireAfterUpdate(Key key, FreshForecast value, long currentTime, long currentDuration) {
            return value.staleAfterNanos();
        }

        @Override
        public long expireAfterRead(Key key, FreshForecast value, long currentTime, long currentDuration) {
            return currentDuration;
        }
    }
}
