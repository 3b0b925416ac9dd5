package dev.canopy.dashboard;

import dev.canopy.dashboard.http.DashboardRouter;
import dev.canopy.dashboard.metrics.DashboardMetrics;
import dev.canopy.dashboard.model.DashboardState;
import dev.canopy.dashboard.model.LinkRows;
import dev.canopy.dashboard.plan.PlanView;
import dev.canopy.dashboard.record.CollectiveRecorder;
import dev.canopy.gridconfig.model.GridModel;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.util.Optional;

/**
 * The web dashboard of one job: an HTTP server (Vert.x Web) with the JSON API, the event stream, Prometheus
 * metrics and the bundled page, over a {@link DashboardState} that sources fill (a
 * {@link dev.canopy.dashboard.zk.JobReader}, a {@link CollectiveRecorder}). Read-only; see docs/dashboard.md.
 */
public final class Dashboard {

    private final HttpServer server;
    private final DashboardRouter router;
    private final DashboardOptions options;

    private Dashboard(HttpServer server, DashboardRouter router, DashboardOptions options) {
        this.server = server;
        this.router = router;
        this.options = options;
    }

    /**
     * Starts serving {@code state}.
     *
     * @param grid the job's level file: the configured round trips and the level algorithms of its plans
     * @param recorder the collectives of in-process members, if any
     */
    public static Future<Dashboard> start(Vertx vertx, DashboardOptions options, DashboardState state, GridModel grid,
            Optional<CollectiveRecorder> recorder) {
        return start(vertx, options, state, grid, recorder, DashboardMetrics.newRegistry());
    }

    /**
     * Starts serving {@code state}, with {@code registry}'s figures on {@code /metrics} (e.g. those of the nodes'
     * Vert.x, created by {@link dev.canopy.dashboard.metrics.VertxMeters}) beside the dashboard's own.
     */
    public static Future<Dashboard> start(Vertx vertx, DashboardOptions options, DashboardState state, GridModel grid,
            Optional<CollectiveRecorder> recorder, PrometheusMeterRegistry registry) {
        LinkRows links = new LinkRows(grid);
        DashboardMetrics metrics = new DashboardMetrics(vertx, registry, state, links);
        recorder.ifPresent(r -> {
            r.onCompleted(metrics::completed);
            r.onCompleted(operation -> state.changed(dev.canopy.dashboard.model.Part.COLLECTIVES));
        });
        DashboardRouter router = new DashboardRouter(vertx, state, links, new PlanView(grid), recorder, metrics);
        return vertx.createHttpServer(new HttpServerOptions().setHost(options.host()).setPort(options.port()))
                .requestHandler(router.router())
                .listen()
                .map(server -> new Dashboard(server, router, options))
                .recover(e -> {
                    router.close();
                    return Future.failedFuture(new IllegalStateException("the dashboard could not listen on "
                            + options.host() + ":" + options.port() + ": " + e.getMessage()
                            + " (choose another --dashboard port, or 0 for any free one)", e));
                });
    }

    /** The port it listens on (the one chosen when started with port 0). */
    public int port() {
        return server.actualPort();
    }

    /** {@code http://HOST:PORT/}. */
    public String url() {
        String host = options.host().contains(":") ? "[" + options.host() + "]" : options.host();
        return "http://" + host + ":" + port() + "/";
    }

    public Future<Void> close() {
        router.close();
        return server.close();
    }
}
