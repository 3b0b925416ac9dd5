package dev.canopy.dashboard.http;

import dev.canopy.dashboard.model.DashboardState;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

/**
 * {@code GET /api/stream}: Server-Sent Events. Each client gets the parts' versions at once and again whenever
 * any part changes ({@code event: versions}, checked every {@value #CHECK_MS} ms), and refetches the parts whose
 * version moved; a comment every 15 s keeps idle connections open. At most {@value #MAX_CLIENTS} clients.
 */
final class EventStream implements AutoCloseable {

    static final long CHECK_MS = 100;
    static final int MAX_CLIENTS = 64;
    private static final long KEEP_ALIVE_MS = 15_000;

    private final Vertx vertx;
    private final DashboardState state;
    private final Set<HttpServerResponse> clients = new CopyOnWriteArraySet<>();
    private final long checkTimer;
    private final long keepAliveTimer;
    private long lastChange = -1;

    EventStream(Vertx vertx, DashboardState state) {
        this.vertx = vertx;
        this.state = state;
        this.checkTimer = vertx.setPeriodic(CHECK_MS, id -> pushIfChanged());
        this.keepAliveTimer = vertx.setPeriodic(KEEP_ALIVE_MS, id -> clients.forEach(client -> client.write(": keep-alive\n\n")));
    }

    void handle(RoutingContext context) {
        if (clients.size() >= MAX_CLIENTS) {
            throw new ApiError(503, "too many event-stream clients (" + MAX_CLIENTS + "); close another page first");
        }
        HttpServerResponse response = context.response();
        response.setChunked(true)
                .putHeader("content-type", "text/event-stream; charset=utf-8")
                .putHeader("cache-control", "no-cache")
                .putHeader("x-accel-buffering", "no");
        response.write("retry: 1000\n\n" + versions());
        clients.add(response);
        response.closeHandler(v -> clients.remove(response));
        response.exceptionHandler(e -> clients.remove(response));
    }

    private synchronized void pushIfChanged() {
        long change = state.changeCount();
        if (change == lastChange) {
            return;
        }
        lastChange = change;
        String message = versions();
        for (HttpServerResponse client : clients) {
            if (client.closed() || client.ended()) {
                clients.remove(client);
            } else if (!client.writeQueueFull()) {
                client.write(message); // a slow client skips this push; the next one carries the newest versions
            }
        }
    }

    private String versions() {
        return "event: versions\ndata: " + state.versions().encode() + "\n\n";
    }

    int clientCount() {
        return clients.size();
    }

    @Override
    public void close() {
        vertx.cancelTimer(checkTimer);
        vertx.cancelTimer(keepAliveTimer);
        clients.forEach(client -> client.end());
        clients.clear();
    }
}
