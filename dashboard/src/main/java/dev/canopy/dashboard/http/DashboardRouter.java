package dev.canopy.dashboard.http;

import dev.canopy.dashboard.metrics.DashboardMetrics;
import dev.canopy.dashboard.model.DashboardState;
import dev.canopy.dashboard.model.GridEvent;
import dev.canopy.dashboard.model.GridJson;
import dev.canopy.dashboard.model.LinkRows;
import dev.canopy.dashboard.multicast.MulticastFigures;
import dev.canopy.dashboard.plan.PlanView;
import dev.canopy.dashboard.record.CollectiveRecorder;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dashboard's routes, all read-only: the JSON API under {@code /api}, the event stream, {@code /metrics}
 * and the bundled single-page UI at {@code /}. Any other method than GET is a 405; an unknown path, a
 * bad parameter or anything a handler rejects is a JSON error with a 4xx status; a handler's own bug is logged
 * and answered with a 500, and never stops the server.
 */
public final class DashboardRouter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DashboardRouter.class);
    private static final String WEB_ROOT = "dev/canopy/dashboard/web";
    private static final int MAX_OPERATIONS = 50;

    private final DashboardState state;
    private final LinkRows links;
    private final PlanView plans;
    private final Optional<CollectiveRecorder> recorder;
    private final DashboardMetrics metrics;
    private final EventStream stream;
    private final Router router;

    public DashboardRouter(Vertx vertx, DashboardState state, LinkRows links, PlanView plans,
            Optional<CollectiveRecorder> recorder, DashboardMetrics metrics) {
        this.state = state;
        this.links = links;
        this.plans = plans;
        this.recorder = recorder;
        this.metrics = metrics;
        this.stream = new EventStream(vertx, state);
        this.router = Router.router(vertx);
        routes();
    }

    public Router router() {
        return router;
    }

    private void routes() {
        router.route().handler(this::readOnly);
        router.get("/api/grid").handler(json(context -> {
            QueryParameters.of(context, Set.of());
            return GridJson.of(state);
        }));
        router.get("/api/links").handler(json(context -> {
            QueryParameters.of(context, Set.of());
            return links.toJson(state);
        }));
        router.get("/api/plan").handler(json(this::plan));
        router.get("/api/events").handler(json(this::events));
        router.get("/api/collectives").handler(json(this::collectives));
        router.get("/api/multicast").handler(json(this::multicast));
        router.get("/api/stream").handler(context -> {
            QueryParameters.of(context, Set.of());
            stream.handle(context);
        });
        router.get("/metrics").handler(context -> {
            QueryParameters.of(context, Set.of());
            context.response().putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8").end(metrics.scrape());
        });
        router.route("/api/*").handler(context -> {
            throw new ApiError(404, "no endpoint " + context.normalizedPath() + "; the API has /api/grid, /api/links,"
                    + " /api/plan, /api/events, /api/collectives, /api/multicast and /api/stream");
        });
        router.get("/*").handler(StaticHandler.create(WEB_ROOT).setCachingEnabled(false).setIndexPage("index.html"));
        router.route().failureHandler(this::failed);
        router.errorHandler(404, context -> ApiError.send(context, 404, "no page " + context.normalizedPath()
                + "; the dashboard is at / and its API under /api"));
    }

    private void readOnly(RoutingContext context) {
        HttpMethod method = context.request().method();
        if (method != HttpMethod.GET) {
            context.response().putHeader("allow", "GET");
            ApiError.send(context, 405, method + " is not allowed: the dashboard is read-only (use GET)");
            return;
        }
        context.next();
    }

    private JsonObject plan(RoutingContext context) {
        int root = (int) QueryParameters.of(context, Set.of("root")).integer("root", 0, Integer.MAX_VALUE, 0);
        try {
            return plans.toJson(state.snapshot(), state.plan(), root);
        } catch (IllegalArgumentException e) {
            throw new ApiError(400, e.getMessage());
        }
    }

    private JsonObject events(RoutingContext context) {
        long since = QueryParameters.of(context, Set.of("since")).integer("since", 0, Long.MAX_VALUE, 0);
        JsonArray events = new JsonArray();
        for (GridEvent event : state.events().since(since)) {
            events.add(event.toJson());
        }
        return new JsonObject().put("last_seq", state.events().lastSequence()).put("events", events);
    }

    private JsonObject collectives(RoutingContext context) {
        int limit = (int) QueryParameters.of(context, Set.of("limit")).integer("limit", 1, MAX_OPERATIONS, 20);
        return recorder.map(r -> r.toJson(limit).put("recorded", true))
                .orElse(new JsonObject().put("recorded", false).put("communicators", new JsonArray())
                        .put("note", "collectives are recorded by in-process grids (canopy demo) or read from the"
                                + " members' published timings, which need the job's secret; this dashboard has neither"));
    }

    private JsonObject multicast(RoutingContext context) {
        QueryParameters parameters = QueryParameters.of(context, Set.of("rank"));
        MulticastFigures figures = state.multicast();
        if (context.queryParam("rank").isEmpty()) {
            return figures.toJson(Optional.empty());
        }
        int rank = (int) parameters.integer("rank", 0, Integer.MAX_VALUE, 0);
        return figures.toJson(Optional.of(figures.member(rank).orElseThrow(() -> new ApiError(404,
                "no member with rank " + rank + " runs bcast over multicast; see /api/multicast for the ranks"))));
    }

    private static Handler<RoutingContext> json(Function<RoutingContext, JsonObject> body) {
        return context -> {
            JsonObject json = body.apply(context);
            context.response().putHeader("content-type", "application/json; charset=utf-8")
                    .putHeader("cache-control", "no-store").end(json.encode());
        };
    }

    private void failed(RoutingContext context) {
        Throwable failure = context.failure();
        if (failure instanceof ApiError error) {
            ApiError.send(context, error.status(), error.getMessage());
        } else if (failure != null) {
            LOG.error("dashboard request {} {} failed", context.request().method(), context.normalizedPath(), failure);
            ApiError.send(context, 500, "internal error: " + failure);
        } else {
            int status = context.statusCode() >= 400 ? context.statusCode() : 500;
            ApiError.send(context, status, "request " + context.normalizedPath() + " failed with status " + status);
        }
    }

    int streamClients() {
        return stream.clientCount();
    }

    @Override
    public void close() {
        stream.close();
        metrics.close();
    }
}
