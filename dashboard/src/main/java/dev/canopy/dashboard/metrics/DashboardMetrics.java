package dev.canopy.dashboard.metrics;

import dev.canopy.dashboard.model.DashboardState;
import dev.canopy.dashboard.model.GridEvent;
import dev.canopy.dashboard.model.LinkRows;
import dev.canopy.dashboard.model.MemberState;
import dev.canopy.dashboard.record.CompletedOperation;
import dev.canopy.probes.internal.measure.SitePairForecast;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The job's figures for Prometheus ({@code GET /metrics}): collective latency histograms per operation,
 * algorithm and level, bytes moved, probe forecasts and configured round trips per site pair, the plan epoch,
 * re-plans and members by state. Gauges read the {@link DashboardState} at scrape time; the site-pair gauges
 * are re-registered when a scrape finds the pairs changed.
 */
public final class DashboardMetrics implements AutoCloseable {

    private final PrometheusMeterRegistry registry;
    private final DashboardState state;
    private final LinkRows links;
    private final MultiGauge forecastRtt;
    private final MultiGauge configuredRtt;
    private final EventLoopDelay eventLoop;

    /** A fresh registry for the dashboard's figures alone. */
    public static PrometheusMeterRegistry newRegistry() {
        return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    }

    /**
     * @param vertx the dashboard's Vert.x, whose event-loop delay is measured
     * @param registry where the figures go; it may hold others' too (a {@link VertxMeters} instance's), all scraped
     */
    public DashboardMetrics(Vertx vertx, PrometheusMeterRegistry registry, DashboardState state, LinkRows links) {
        this.registry = registry;
        this.state = state;
        this.links = links;
        this.eventLoop = new EventLoopDelay(vertx, registry);
        for (MemberState memberState : MemberState.values()) {
            Gauge.builder("canopy.members", state, s -> s.snapshot().count(memberState))
                    .description("members of the job by state").tag("state", memberState.jsonName()).register(registry);
        }
        Gauge.builder("canopy.plan.epoch", state, s -> s.plan().map(p -> (double) p.epoch()).orElse(0.0))
                .description("the newest published plan epoch (0: the level file's plan)").register(registry);
        FunctionCounter.builder("canopy.replans", state, s -> s.events().total(GridEvent.Kind.REPLAN))
                .description("plans published by the plan leader while the dashboard watched").register(registry);
        FunctionCounter.builder("canopy.multicast.retransmissions", state, s -> total(s, "retransmissions"))
                .description("packets the reliable multicast sent again (members in the dashboard's JVM)").register(registry);
        FunctionCounter.builder("canopy.multicast.acks", state, s -> total(s, "acks_received"))
                .description("ACK/credit messages the multicast roots and co-roots received").register(registry);
        FunctionCounter.builder("canopy.multicast.bcasts", state, s -> total(s, "multicast_bcasts"))
                .description("bcasts per member, by carrier").tag("carrier", "multicast").register(registry);
        FunctionCounter.builder("canopy.multicast.bcasts", state, s -> total(s, "tree_bcasts"))
                .description("bcasts per member, by carrier").tag("carrier", "tree").register(registry);
        forecastRtt = MultiGauge.builder("canopy.probe.forecast.rtt").baseUnit("seconds")
                .description("the probes' forecast round trip per site pair").register(registry);
        configuredRtt = MultiGauge.builder("canopy.link.configured.rtt").baseUnit("seconds")
                .description("the level file's round trip per site pair").register(registry);
    }

    private static double total(DashboardState state, String counter) {
        return state.multicast().toJson(Optional.empty()).getJsonObject("totals").getLong(counter);
    }

    /** Records one completed collective (a {@link dev.canopy.dashboard.record.CollectiveRecorder} listener). */
    public void completed(CompletedOperation operation) {
        Tags tags = Tags.of("op", operation.operation(), "algorithm", operation.algorithm(), "level", operation.level(),
                "communicator", operation.communicator(), "outcome", operation.succeeded() ? "ok" : "failed");
        Timer.builder("canopy.collective.latency").description("completion of the last rank after the root's start")
                .tags(tags).publishPercentileHistogram().register(registry)
                .record(Duration.ofNanos((long) (operation.completionMs() * 1e6)));
        Counter.builder("canopy.collective.bytes").baseUnit("bytes").description("payload bytes of collectives")
                .tags("op", operation.operation()).register(registry).increment(operation.bytes());
    }

    /** The registry's figures in the Prometheus text format, state gauges refreshed first. */
    public synchronized String scrape() {
        List<MultiGauge.Row<?>> forecasts = new ArrayList<>();
        for (SitePairForecast pair : state.forecasts()) {
            forecasts.add(MultiGauge.Row.of(Tags.of("a", pair.a(), "b", pair.b()), pair.rttMs() / 1000));
        }
        forecastRtt.register(forecasts, true);
        List<MultiGauge.Row<?>> configured = new ArrayList<>();
        List<String> sites = state.snapshot().sites();
        for (int i = 0; i < sites.size(); i++) {
            for (int j = i + 1; j < sites.size(); j++) {
                String a = sites.get(i);
                String b = sites.get(j);
                links.configuredRttMs(a, b).ifPresent(ms -> configured.add(MultiGauge.Row.of(Tags.of("a", a, "b", b), ms / 1000)));
            }
        }
        configuredRtt.register(configured, true);
        return registry.scrape();
    }

    @Override
    public void close() {
        eventLoop.close();
    }
}
