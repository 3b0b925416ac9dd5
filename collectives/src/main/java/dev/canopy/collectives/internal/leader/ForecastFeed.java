package dev.canopy.collectives.internal.leader;

import dev.canopy.probes.internal.forecast.ForecastListener;
import dev.canopy.probes.internal.forecast.LinkForecast;
import dev.canopy.probes.internal.forecast.LinkForecasts;
import dev.canopy.probes.internal.forecast.Subscription;
import dev.canopy.probes.internal.measure.ProbeService;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.List;

/**
 * Where the plan leader gets its node's forecasts: change notifications and the current list. A node's
 * {@link ProbeService} is one; a bare {@link LinkForecasts} on the context that owns it is another.
 * Listeners may be called on the feed's own thread; the leader hops to its context.
 */
public interface ForecastFeed {

    Subscription subscribe(ForecastListener listener);

    /** Every forecast the node holds, fresh and stale. */
    Future<List<LinkForecast>> all();

    static ForecastFeed of(ProbeService probes) {
        return new ForecastFeed() {
            @Override
            public Subscription subscribe(ForecastListener listener) {
                return probes.subscribe(listener);
            }

            @Override
            public Future<List<LinkForecast>> all() {
                return probes.forecasts();
            }
        };
    }

    /** @param owner the context that owns {@code forecasts} (every call but subscribe must run there) */
    static ForecastFeed of(LinkForecasts forecasts, Context owner) {
        return new ForecastFeed() {
            @Override
            public Subscription subscribe(ForecastListener listener) {
                return forecasts.subscribe(listener);
            }

            @Override
            public Future<List<LinkForecast>> all() {
                Promise<List<LinkForecast>> all = Promise.promise();
                owner.runOnContext(v -> all.complete(forecasts.all()));
                return all.future();
            }
        };
    }
}
