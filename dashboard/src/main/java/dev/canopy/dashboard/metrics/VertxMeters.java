package dev.canopy.dashboard.metrics;

import dev.canopy.core.node.CanopyVertx;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MetricsDomain;
import io.vertx.micrometer.MicrometerMetricsOptions;

/**
 * Vert.x instances that report to a Micrometer registry through Vert.x's metrics SPI (vertx-micrometer-metrics):
 * every event loop's pending tasks ({@code netty_eventexecutor_tasks_pending}, by thread), the worker and internal
 * blocking pools (queue time, usage), the TCP servers and clients and UDP sockets of the nodes' transports (bytes,
 * connections), Netty's buffer allocator and the event bus. Metrics can only be switched on when a
 * Vert.x instance is created, so the nodes whose figures the dashboard shows must be created here. One registry
 * takes one metered Vert.x instance: two would report event-loop threads of the same names.
 */
public final class VertxMeters {

    private static final String DUPLICATED_GAUGE = "netty.eventexecutor.workers";

    private VertxMeters() {
    }

    /** A Vert.x instance (binding no wildcard socket, as {@link CanopyVertx}) whose figures go to {@code registry}. */
    public static Vertx create(MeterRegistry registry) {
        CanopyVertx.useSystemResolver();
        // Micrometer's Netty binder registers this untagged gauge once per event-loop group (Vert.x has two) and warns
        // about the second; the per-loop figures are tagged by thread and unaffected.
        registry.config().meterFilter(MeterFilter.denyNameStartsWith(DUPLICATED_GAUGE));
        // Not the HTTP server's: the dashboard's own requests are of no interest, and its active-requests gauge is
        // registered once per request (Micrometer warns about the second).
        MicrometerMetricsOptions metrics = new MicrometerMetricsOptions().setEnabled(true).setNettyMetricsEnabled(true)
                .addDisabledMetricsCategory(MetricsDomain.HTTP_SERVER);
        return Vertx.builder()
                .with(new VertxOptions().setMetricsOptions(metrics))
                .withMetrics(new MicrometerMetricsFactory(registry))
                .build();
    }
}
