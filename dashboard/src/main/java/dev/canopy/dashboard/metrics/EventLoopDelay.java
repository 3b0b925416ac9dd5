package dev.canopy.dashboard.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The event-loop delay: a timer on the dashboard's Vert.x is re-armed every {@value #PERIOD_MS} ms and records
 * how much later than asked it fired. A loop that something blocks, or a machine too loaded to run it on time,
 * shows up as a growing delay ({@code canopy_eventloop_delay_seconds}: count, sum, max). One timer measures the
 * one event loop it runs on, the dashboard's; the nodes' loops share the machine, so they feel the same load.
 */
final class EventLoopDelay implements AutoCloseable {

    static final long PERIOD_MS = 100;

    private final Vertx vertx;
    private final Timer delay;
    private volatile boolean closed;
    private volatile long timer;

    EventLoopDelay(Vertx vertx, MeterRegistry registry) {
        this.vertx = vertx;
        this.delay = Timer.builder("canopy.eventloop.delay")
                .description("how much later than asked a " + PERIOD_MS + " ms timer on the dashboard's event loop fired")
                .register(registry);
        arm();
    }

    private void arm() {
        long due = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PERIOD_MS);
        timer = vertx.setTimer(PERIOD_MS, id -> {
            delay.record(Duration.ofNanos(Math.max(0, System.nanoTime() - due)));
            if (!closed) {
                arm();
            }
        });
    }

    @Override
    public void close() {
        closed = true;
        vertx.cancelTimer(timer);
    }
}
